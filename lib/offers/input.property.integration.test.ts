/**
 * Property test of every route's validation: generated strings (every control character U+0000–
 * U+001F and U+007F, lone surrogates, other scripts, long strings) in every string position of
 * every route registered in the app (body fields and record keys, path, query, headers, JWT
 * claims), including the admin and stream routes. Never a 5xx, and a 4xx changes nothing stored.
 */
import { createHmac } from "node:crypto";
import fc from "fast-check";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryEventBus } from "../events";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { createEventStream } from "./sse";
import { encodeCursor, FEED_START } from "./delivery/feed";
import { startOffersTestApp, storedStateDigest, type OffersTestContext } from "@/test-support/offers/test-app";
import { fuzzRuns, fuzzSeed } from "@/test-support/fuzz";

const ADMIN = "test-admin-token-0123456789";
/** Generated cases per route (FUZZ_RUNS to search longer, FUZZ_SEED to replay a failure). */
const NUM_RUNS = fuzzRuns(10);

type Auth = "jwt" | "apiKey" | "admin" | "none";
/** A valid request of a route; every string in it (and every object key of its body) is a position to fuzz. */
interface Example {
  auth: Auth;
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  /** The answer is a long-lived event stream. */
  stream?: boolean;
}

type Position =
  | { in: "params" | "query" | "headers"; name: string }
  | { in: "body"; path: Array<string | number>; key: boolean }
  | { in: "claim"; name: string; key: boolean }
  | { in: "client-id" };

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** Control characters, lone surrogates and other troublemakers, one per string. */
const CONTROLS = [...Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)), "\u007f"];
const SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff", "\udc00\ud800"];
const OTHERS = ["😀", "é", "e\u0301", "\u2028", "\ufeff", "日本", "%00", "%ff", "/", "../..", ":", "\\", '"', "'", "{}", "\u0000\u0000"];

/**
 * Strings tried in every position, deterministically: every control character at once (with and
 * without U+0000, which alone decides the refusal of text), lone high and low surrogates, and long
 * strings (over an id's 200 characters, and over the 64 KiB body limit). The generated strings
 * below try each control character on its own.
 */
const DETERMINISTIC = [
  `a${CONTROLS.join("")}b`,
  `a${CONTROLS.slice(1).join("")}b`,
  "a\ud800b",
  "a\udfffb",
  "x".repeat(201),
  "x".repeat(5_000),
  "x".repeat(70 * 1024),
];

/** Random strings built from the same troublemakers, ordinary characters and any code point. */
const hostileString = fc.oneof(
  fc.constantFrom(...CONTROLS, ...SURROGATES, ...OTHERS),
  fc.array(fc.oneof(fc.constantFrom(...CONTROLS, ...SURROGATES, ...OTHERS), fc.string({ unit: "binary", maxLength: 4 }), fc.constantFrom("a", "Z", "0", "-", "_")), { maxLength: 40 }).map((parts) => parts.join("")),
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.integer({ min: 190, max: 70 * 1024 }).map((n) => "y".repeat(n)),
);

/** A header value carries latin-1 only: other characters become "?" (a NUL cannot reach a header over HTTP). */
const headerSafe = (value: string) => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, "?");
/** Percent-encoding of any JS string, lone surrogates as their WTF-8 bytes (what a client would send). */
function percentEncode(value: string): string {
  let out = "";
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (/[A-Za-z0-9_~-]/.test(char)) out += char;
    else if (code >= 0xd800 && code <= 0xdfff) out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join("");
    else out += encodeURIComponent(char).replace(/\./g, "%2E");
  }
  return out;
}

function stringPositions(example: Example, jwt: boolean): Position[] {
  const positions: Position[] = [];
  for (const name of Object.keys(example.params ?? {})) positions.push({ in: "params", name });
  for (const name of Object.keys(example.query ?? {})) positions.push({ in: "query", name });
  for (const name of Object.keys(example.headers ?? {})) positions.push({ in: "headers", name });
  const walk = (value: unknown, path: Array<string | number>) => {
    if (typeof value === "string") positions.push({ in: "body", path, key: false });
    else if (Array.isArray(value)) value.forEach((item, i) => walk(item, [...path, i]));
    else if (value && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        positions.push({ in: "body", path: [...path, key], key: true });
        walk(item, [...path, key]);
      }
    }
  };
  walk(example.body, []);
  if (example.body !== undefined && typeof example.body === "object" && Object.keys(example.body as object).length === 0) {
    positions.push({ in: "body", path: ["extra"], key: false });
  }
  if (jwt) {
    for (const name of ["iss", "sub", "note"]) positions.push({ in: "claim", name, key: false });
    positions.push({ in: "claim", name: "note", key: true });
  }
  if (example.auth === "apiKey") positions.push({ in: "client-id" });
  return positions;
}

/** Sets value at path in a copy of body (as a value, or as the key at the end of the path). */
function placeInBody(body: unknown, path: Array<string | number>, value: string, key: boolean): unknown {
  const copy = structuredClone(body ?? {}) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (key) {
    const item = parent[last];
    delete parent[last];
    parent[value] = item;
  } else parent[last] = value;
  return copy;
}

const describePosition = (p: Position) => (p.in === "body" ? `body ${JSON.stringify(p.path)}${p.key ? " (key)" : ""}` : p.in === "claim" ? `claim ${p.name}${p.key ? " (key)" : ""}` : p.in === "client-id" ? "x-client-id" : `${p.in} ${p.name}`);

describe.each(testDatabaseTargets())("every route's validation under generated strings, on %s", (target) => {
  let t: OffersTestContext;
  let now: number;
  let examples: Record<string, Example>;
  let lastDigest = "";
  const jwtRoutes = new Set<string>();
  const answered = new Map<number, number>();

  const signed = (claims: Record<string, unknown>) => {
    const input = `${b64({ alg: "HS256", typ: "JWT" })}.${b64(claims)}`;
    return `${input}.${createHmac("sha256", t.game.apiKey).update(input).digest("base64url")}`;
  };

  beforeAll(async () => {
    const stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 60_000, staleTimeoutMs: 60_000 });
    t = await startOffersTestApp(target, { eventStream: stream, adminToken: ADMIN });
    now = Math.floor(t.clock.now().getTime() / 1000);
    const api = t.apiHeaders();
    // Enough state that valid-looking requests reach the engine: a player, offers, a claimable one.
    const reward = { kind: "coins", rewardId: "coins", name: "Coins", amount: 5, image: "https://img.example/c.png" };
    expect((await t.inject({ method: "PUT", url: "/v1/offers/definitions/gift", headers: api, payload: { name: "Gift", rewards: [reward], durationSeconds: 86_400 } })).statusCode).toBe(200);
    expect((await t.post("/v1/player/snapshot", { playerId: "p1", username: "one" }, api)).status).toBe(200);
    const offer = await t.post("/v1/player/offers/assign", { playerId: "p1", offerId: "gift" }, api);
    await t.post("/v1/client/player/campaigns", { viewingCampaigns: true }, { "x-game-jwt": await t.jwt("p1") });
    const instanceId: string = offer.body.instanceId;
    const hook = await t.post("/v1/webhooks/endpoints", { url: "https://hooks.example.com/rewards" }, api);
    expect(hook.status).toBe(200);
    const endpointId: string = hook.body.endpointId;
    const webhook = { url: "https://hooks.example.com/other", description: "game server", eventTypes: ["reward.granted"], enabled: true };

    examples = {
      "POST /v1/auth/one_time_token/generate": { auth: "jwt", body: {} },
      "POST /v1/auth/one_time_token/redeem": { auth: "none", body: { token: "not-a-token", gameId: "game-a" } },
      "POST /v1/client/player/referrals": { auth: "jwt", body: {} },
      "POST /v1/client/player/balances": { auth: "jwt", body: {} },
      "POST /v1/client/player/campaigns": { auth: "jwt", body: { viewingCampaigns: true } },
      "POST /v1/player/campaigns/refresh": { auth: "apiKey", body: { playerId: "p1", viewingCampaigns: false } },
      "POST /v1/client/reward/claim": { auth: "jwt", headers: { "idempotency-key": "key-1" }, body: { kind: "offer", instanceId } },
      "POST /v1/reward/sdk/claim": { auth: "apiKey", headers: { "idempotency-key": "key-2" }, body: { kind: "offer", instanceId, playerId: "p1" } },
      "PUT /v1/offers/definitions/{offerId}": {
        auth: "apiKey",
        params: { offerId: "fuzz-offer" },
        body: {
          offerId: "fuzz-offer",
          name: "Fuzz",
          description: "An offer",
          image: "https://img.example/o.png",
          rewards: [reward],
          completionConditions: [{ kind: "spendCurrency", id: "gold", name: "Gold", amount: 10 }],
          realTime: true,
          durationSeconds: 3600,
          priority: 1,
        },
      },
      "POST /v1/player/offers/assign": { auth: "apiKey", body: { playerId: "p2", offerId: "gift" } },
      "POST /v1/player/rewards/grant": { auth: "apiKey", headers: { "idempotency-key": "server-grant-1" }, body: { playerId: "p1", kind: "coins", rewardId: "coins", amount: 5, reason: "Lost in the outage" } },
      ...Object.fromEntries(
        (["expire", "revoke", "make-claimable"] as const).map((action) => [`POST /v1/player/offers/{instanceId}/${action}`, { auth: "apiKey", params: { instanceId }, body: { playerId: "p1", reason: "Stuck after the outage" } }]),
      ),
      "POST /v1/player/offers/{instanceId}/extend": { auth: "apiKey", params: { instanceId }, body: { playerId: "p1", reason: "More time", expiresAt: "2026-01-03T12:00:00.000Z" } },
      "POST /v1/player/snapshot": {
        auth: "apiKey",
        body: { playerId: "p1", username: "One", daysInGame: 3, currencies: { gold: { balance: 1, in: 2, out: 1 } }, levels: { "level-main": { level: 2 } } },
      },
      "POST /v1/referrals": { auth: "apiKey", body: { referrerId: "p1", refereeId: "p3", rewards: [reward] } },
      "PUT /v1/currencies/{currencyId}": { auth: "apiKey", params: { currencyId: "gold" }, body: { name: "Gold", image: "https://img.example/g.png" } },
      "GET /v1/sse/connect": { auth: "jwt", headers: { "last-event-id": "0" }, stream: true },
      "GET /v1/admin/games": { auth: "admin" },
      "GET /v1/admin/games/{gameId}/players": { auth: "admin", params: { gameId: "game-a" }, query: { q: "p", limit: "5" } },
      "GET /v1/admin/games/{gameId}/players/{playerId}": { auth: "admin", params: { gameId: "game-a", playerId: "p1" } },
      "GET /v1/admin/games/{gameId}/players/{playerId}/watch": { auth: "admin", params: { gameId: "game-a", playerId: "p1" }, stream: true },
      "GET /v1/admin/games/{gameId}/definitions": { auth: "admin", params: { gameId: "game-a" }, query: { days: "7" } },
      "GET /v1/admin/games/{gameId}/rate-limits": { auth: "admin", params: { gameId: "game-a" } },
      "PUT /v1/admin/games/{gameId}/rate-limits": { auth: "admin", params: { gameId: "game-a" }, body: { clientPerMinute: 1_000, serverPerMinute: null } },
      "GET /v1/admin/games/{gameId}/support-thresholds": { auth: "admin", params: { gameId: "game-a" } },
      "PUT /v1/admin/games/{gameId}/support-thresholds": {
        auth: "admin",
        params: { gameId: "game-a" },
        body: { rules: [{ kind: "coins", rewardId: "gold", approvalAbove: 1_000 }, { kind: "loyalty_currency", approvalAbove: "always" }] },
      },
      "POST /v1/admin/games/{gameId}/players/{playerId}/support-grants": {
        auth: "admin",
        params: { gameId: "game-a", playerId: "p1" },
        headers: { "idempotency-key": "grant-key-1" },
        body: { kind: "coins", rewardId: "gold", amount: 100, reason: "Lost during the outage", actor: "sam" },
      },
      "GET /v1/admin/games/{gameId}/players/{playerId}/timeline": { auth: "admin", params: { gameId: "game-a", playerId: "p1" }, query: { kinds: "offer,reward", limit: "5" } },
      "GET /v1/admin/games/{gameId}/support-grants": { auth: "admin", params: { gameId: "game-a" }, query: { status: "pending", playerId: "p1", limit: "5" } },
      "POST /v1/admin/games/{gameId}/support-grants/{grantId}/approve": { auth: "admin", params: { gameId: "game-a", grantId: "sg_1" }, body: { actor: "lee", reason: "Checked the logs" } },
      "POST /v1/admin/games/{gameId}/support-grants/{grantId}/reject": { auth: "admin", params: { gameId: "game-a", grantId: "sg_1" }, body: { actor: "lee", reason: "Already compensated" } },
      ...Object.fromEntries(
        (["expire", "revoke", "make-claimable"] as const).map((action) => [
          `POST /v1/admin/games/{gameId}/players/{playerId}/offers/{instanceId}/${action}`,
          { auth: "admin", params: { gameId: "game-a", playerId: "p1", instanceId }, body: { actor: "sam", reason: "Stuck after the outage" } },
        ]),
      ),
      "POST /v1/admin/games/{gameId}/players/{playerId}/offers/{instanceId}/extend": {
        auth: "admin",
        params: { gameId: "game-a", playerId: "p1", instanceId },
        body: { actor: "sam", reason: "More time after the outage", expiresAt: "2026-01-03T12:00:00.000Z" },
      },
      "POST /v1/admin/games/{gameId}/players/{playerId}/offers": { auth: "admin", params: { gameId: "game-a", playerId: "p1" }, body: { offerId: "gift", actor: "sam", reason: "Missed it in the outage" } },
      "POST /v1/admin/games/{gameId}/players/{playerId}/deliveries/replay": { auth: "admin", params: { gameId: "game-a", playerId: "p1" }, body: { deliveryId: 1, actor: "sam", reason: "Webhook lost" } },
      "POST /v1/admin/games/{gameId}/bulk-compensations/preview": {
        auth: "admin",
        params: { gameId: "game-a" },
        body: { kind: "coins", rewardId: "gold", amount: 10, reason: "Outage", actor: "sam", players: { list: "playerId\np1\np2" } },
      },
      "POST /v1/admin/games/{gameId}/bulk-compensations": {
        auth: "admin",
        params: { gameId: "game-a" },
        headers: { "idempotency-key": "bulk-key-1" },
        body: { kind: "coins", rewardId: "gold", amount: 10, reason: "Outage", actor: "sam", players: { audience: { field: "loginStreak", op: "gte", value: 1 } } },
      },
      "GET /v1/admin/games/{gameId}/bulk-compensations": { auth: "admin", params: { gameId: "game-a" }, query: { status: "pending", limit: "5" } },
      "GET /v1/admin/games/{gameId}/bulk-compensations/{jobId}": { auth: "admin", params: { gameId: "game-a", jobId: "bc_1" } },
      "GET /v1/admin/games/{gameId}/bulk-compensations/{jobId}/result": { auth: "admin", params: { gameId: "game-a", jobId: "bc_1" } },
      "POST /v1/admin/games/{gameId}/bulk-compensations/{jobId}/approve": { auth: "admin", params: { gameId: "game-a", jobId: "bc_1" }, body: { actor: "lee", reason: "Incident confirmed" } },
      "POST /v1/admin/games/{gameId}/bulk-compensations/{jobId}/reject": { auth: "admin", params: { gameId: "game-a", jobId: "bc_1" }, body: { actor: "lee", reason: "Not ours" } },
      "POST /v1/admin/games/{gameId}/bulk-compensations/{jobId}/cancel": { auth: "admin", params: { gameId: "game-a", jobId: "bc_1" }, body: { actor: "sam", reason: "Wrong list" } },
      "POST /v1/admin/games/{gameId}/definitions": {
        auth: "admin",
        params: { gameId: "game-a" },
        body: {
          offerId: "fuzz-live",
          name: "Live",
          rewards: [reward],
          durationSeconds: 600,
          audience: { all: [{ field: "loginStreak", op: "gte", value: 3 }, { field: "currencies.gold.out", op: "in", value: [1, 2] }, { field: "username", op: "eq", value: "One" }] },
          schedule: { startsAt: "2026-01-01T00:00:00Z", endsAt: "2027-01-01T00:00:00Z" },
          limits: { maxActivationsPerPlayer: 2, cooldownSeconds: 60, maxClaimsTotal: 100 },
          rollout: 50,
          variants: [
            { variantId: "v1", name: "Control", weight: 1, rewards: [reward] },
            { variantId: "v2", weight: 1, rewards: [reward] },
          ],
        },
      },
      "GET /v1/admin/games/{gameId}/definitions/{offerId}": { auth: "admin", params: { gameId: "game-a", offerId: "gift" } },
      "PUT /v1/admin/games/{gameId}/definitions/{offerId}": {
        auth: "admin",
        params: { gameId: "game-a", offerId: "gift" },
        headers: { "if-match": "*" },
        body: { name: "Gift", rewards: [reward], durationSeconds: 600, audience: { not: { field: "levels.main.level", op: "exists" } } },
      },
      "POST /v1/admin/games/{gameId}/definitions/{offerId}/activate": { auth: "admin", params: { gameId: "game-a", offerId: "gift" }, headers: { "if-match": "*" } },
      "POST /v1/admin/games/{gameId}/definitions/{offerId}/pause": { auth: "admin", params: { gameId: "game-a", offerId: "gift" }, headers: { "if-match": "*" } },
      "POST /v1/admin/games/{gameId}/definitions/{offerId}/archive": { auth: "admin", params: { gameId: "game-a", offerId: "gift" }, headers: { "if-match": '"stale", *' } },
      "POST /v1/admin/games/{gameId}/definitions/{offerId}/restore": { auth: "admin", params: { gameId: "game-a", offerId: "gift" }, headers: { "if-match": "*" } },
      "POST /v1/admin/games/{gameId}/definitions/{offerId}/preview": { auth: "admin", params: { gameId: "game-a", offerId: "gift" }, body: { playerId: "p1" } },
      "GET /v1/admin/games/{gameId}/definitions/{offerId}/funnel": { auth: "admin", params: { gameId: "game-a", offerId: "gift" }, query: { days: "7" } },
      "GET /v1/admin/games/{gameId}/definitions/{offerId}/jobs": { auth: "admin", params: { gameId: "game-a", offerId: "gift" } },
      "POST /v1/admin/games/{gameId}/audience/count": {
        auth: "admin",
        params: { gameId: "game-a" },
        body: { audience: { any: [{ field: "daysInGame", op: "between", value: [1, 5] }, { field: "username", op: "in", value: ["One", "Two"] }] }, rollout: 50, offerId: "gift" },
      },
      "GET /v1/rewards/events": { auth: "apiKey", query: { after: encodeCursor("game-a", FEED_START), limit: "10" } },
      "GET /v1/webhooks/endpoints": { auth: "apiKey" },
      "POST /v1/webhooks/endpoints": { auth: "apiKey", body: webhook },
      "GET /v1/webhooks/endpoints/{endpointId}": { auth: "apiKey", params: { endpointId } },
      "PATCH /v1/webhooks/endpoints/{endpointId}": { auth: "apiKey", params: { endpointId }, headers: { "if-match": "*" }, body: { description: "eu", enabled: true } },
      "DELETE /v1/webhooks/endpoints/{endpointId}": { auth: "apiKey", params: { endpointId } },
      "POST /v1/webhooks/endpoints/{endpointId}/rotate-secret": { auth: "apiKey", params: { endpointId }, body: {} },
      "POST /v1/webhooks/endpoints/{endpointId}/test": { auth: "apiKey", params: { endpointId }, body: {} },
      "GET /v1/webhooks/stats": { auth: "apiKey" },
      "GET /v1/webhooks/deliveries": { auth: "apiKey", query: { status: "failed", endpointId, before: "100", limit: "5" } },
      "POST /v1/webhooks/deliveries/{deliveryId}/replay": { auth: "apiKey", params: { deliveryId: "1" }, body: {} },
      "POST /v1/webhooks/replay": { auth: "apiKey", body: { from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", endpointId } },
      "GET /v1/admin/games/{gameId}/webhooks": { auth: "admin", params: { gameId: "game-a" } },
      "POST /v1/admin/games/{gameId}/webhooks/endpoints": { auth: "admin", params: { gameId: "game-a" }, body: webhook },
      "GET /v1/admin/games/{gameId}/webhooks/endpoints/{endpointId}": { auth: "admin", params: { gameId: "game-a", endpointId } },
      "PATCH /v1/admin/games/{gameId}/webhooks/endpoints/{endpointId}": { auth: "admin", params: { gameId: "game-a", endpointId }, headers: { "if-match": "*" }, body: { enabled: true } },
      "DELETE /v1/admin/games/{gameId}/webhooks/endpoints/{endpointId}": { auth: "admin", params: { gameId: "game-a", endpointId }, headers: { "if-match": "*" } },
      "POST /v1/admin/games/{gameId}/webhooks/endpoints/{endpointId}/rotate-secret": { auth: "admin", params: { gameId: "game-a", endpointId }, headers: { "if-match": "*" }, body: {} },
      "POST /v1/admin/games/{gameId}/webhooks/endpoints/{endpointId}/test": { auth: "admin", params: { gameId: "game-a", endpointId }, body: {} },
      "GET /v1/admin/games/{gameId}/webhooks/deliveries": { auth: "admin", params: { gameId: "game-a" }, query: { status: "failed", endpointId, before: "100", limit: "5" } },
      "POST /v1/admin/games/{gameId}/webhooks/deliveries/{deliveryId}/replay": { auth: "admin", params: { gameId: "game-a", deliveryId: "1" }, body: {} },
      "POST /v1/admin/games/{gameId}/webhooks/replay": { auth: "admin", params: { gameId: "game-a" }, body: { from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", endpointId } },
      // Routes outside the OpenAPI document.
      "GET /health": { auth: "none" },
      "GET /ready": { auth: "none" },
      "GET /v1/openapi.json": { auth: "none" },
      "GET /v1/docs/{*}": { auth: "none", params: { "*": "json" } },
    };
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> };
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        if (operation.security?.some((s) => "gameJwt" in s || "bearerJwt" in s) || path === "/v1/sse/connect") jwtRoutes.add(name);
      }
    }
    lastDigest = await storedStateDigest(t.database.db, { withoutStreamActivity: true });
  });
  afterAll(async () => t?.close());

  it("has an example request for every route registered in the app", () => {
    // Every route of the router (its printed tree, parameters renamed as in OpenAPI), but the docs page's own files.
    const lines = t.app.printRoutes({ commonPrefix: false }).split("\n").filter((line) => line.includes("("));
    const stack: string[] = [];
    const routes: string[] = [];
    for (const line of lines) {
      const depth = line.search(/[^│ ├└─]/) / 4;
      const [, segment, methods] = /^[│ ├└─]*(\S*) \(([^)]*)\)/.exec(line)!;
      stack.length = depth;
      stack.push(segment);
      const path = stack.join("").replace(/:(\w+)/g, "{$1}").replace(/\/?\*$/, "/{*}").replace(/^\*$/, "");
      for (const method of methods.split(", ")) if (method !== "HEAD" && method !== "OPTIONS") routes.push(`${method} ${path}`);
    }
    const served = routes.filter((r) => !/^GET \/v1\/docs(\/static\/|\/json|\/yaml|$)/.test(r));
    expect(served.length).toBeGreaterThan(15);
    expect(served.filter((r) => !(r in examples))).toEqual([]);
  });

  /** Sends the example of a route with `value` at one position; answers the response. */
  async function send(route: string, position: Position, value: string): Promise<LightMyRequestResponse> {
    const example = examples[route];
    const [method, template] = route.split(" ") as ["GET" | "POST" | "PUT", string];
    const params = { ...example.params };
    const query = { ...example.query };
    const headers: Record<string, string> = { ...example.headers };
    let body = example.body;
    const claims: Record<string, unknown> = { iss: "game-a", sub: "p1", iat: now, exp: now + 600, note: "n" };
    let clientId = t.game.clientId;
    if (position.in === "params") params[position.name] = value;
    else if (position.in === "query") query[position.name] = value;
    else if (position.in === "headers") headers[position.name] = headerSafe(value);
    else if (position.in === "body") body = placeInBody(body, position.path, value, position.key);
    else if (position.in === "claim") {
      if (position.key) {
        delete claims[position.name];
        claims[value] = "n";
      } else claims[position.name] = value;
    } else clientId = headerSafe(value);

    if (example.auth === "jwt") headers.authorization = `Bearer ${signed(claims)}`;
    if (example.auth === "apiKey") Object.assign(headers, { "x-client-id": clientId, "x-api-key": t.game.apiKey });
    if (example.auth === "admin") headers.authorization = `Bearer ${ADMIN}`;
    const url =
      template.replace(/\{([^}]+)\}/g, (_, name: string) => (name === "*" ? params[name] : percentEncode(params[name]))) +
      (Object.keys(query).length ? `?${Object.entries(query).map(([k, v]) => `${k}=${percentEncode(v)}`).join("&")}` : "");
    const options: InjectOptions = { method, url, headers };
    if (body !== undefined) {
      options.payload = JSON.stringify(body);
      headers["content-type"] = "application/json";
    }
    if (example.stream) options.payloadAsStream = true;
    const response = await t.inject(options);
    if (example.stream) {
      // A stream that opened stays open: leave it (the player's next stream replaces it; app.close ends the rest).
      response.stream().resume();
    }
    return response;
  }

  /** Sends, then checks the invariant: no 5xx; a 4xx stored nothing. */
  async function check(route: string, position: Position, value: string): Promise<void> {
    const response = await send(route, position, value);
    const label = `${route} ${describePosition(position)} = ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…(${value.length})` : value)}: ${response.statusCode} ${examples[route].stream ? "" : response.body.slice(0, 200)}`;
    answered.set(response.statusCode, (answered.get(response.statusCode) ?? 0) + 1);
    expect(response.statusCode, label).toBeLessThan(500);
    // Without the streams' opens and closes: the hub writes them in the background, after the request.
    const digest = await storedStateDigest(t.database.db, { withoutStreamActivity: true });
    if (response.statusCode >= 400) expect(digest, `${label}: a refused request changed what is stored`).toBe(lastDigest);
    lastDigest = digest;
  }

  const routeNames = () => Object.keys(examples);

  // Several hundred requests, each followed by a digest of every table: minutes on a loaded 2-core machine.
  it("answers every control character, lone surrogate and long string in every position without a 5xx", { timeout: 300_000 }, async () => {
    for (const route of routeNames()) {
      for (const position of stringPositions(examples[route], jwtRoutes.has(route))) {
        for (const value of DETERMINISTIC) await check(route, position, value);
      }
    }
    // The deterministic strings reach the engine, not only the validators.
    expect(answered.get(200) ?? 0).toBeGreaterThan(50);
    expect(answered.get(400) ?? 0).toBeGreaterThan(300);
  });

  it("answers generated strings in every position without a 5xx (fast-check)", { timeout: 120_000 }, async () => {
    const cases = routeNames().flatMap((route) => stringPositions(examples[route], jwtRoutes.has(route)).map((position) => ({ route, position })));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), hostileString, async ({ route, position }, value) => {
        await check(route, position, value);
      }),
      { numRuns: NUM_RUNS * routeNames().length, seed: fuzzSeed() },
    );
  });
});
