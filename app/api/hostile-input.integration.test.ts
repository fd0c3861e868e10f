/**
 * Every portal API route against hostile strings: U+0000 in every string position (path, query, body
 * values and keys) answers 400 invalid-request; a path whose percent-encoding is not UTF-8 answers 400
 * (proxy.ts, before Next.js decodes it); and a property test puts generated strings (every control
 * character, lone surrogates, long strings, path tricks) in every string position of every route's
 * input: no answer is a 5xx.
 *
 * The real route handlers run on a real portal (test-support/portal/test-portal.ts): an admin signed in through the
 * real authorizer, the portal database on PGlite (PostgreSQL when TEST_DATABASE_URL is set), a catalog
 * in a temporary git repository, local source control, and the offers service's admin API answered by
 * a stub fetch given to the services.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { fuzzParameters } from "@/test-support/fuzz";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";
import type { LocalScmProvider } from "@/lib/scm/local";
import { DEMO_REPOSITORIES, ensureDemoRepositories } from "@/lib/scm/demo";
import type { RouteHandler } from "@/lib/portal/http";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";
import { devSignInThroughNextAuth } from "@/test-support/portal/next-auth-core";

vi.stubEnv("NEXTAUTH_SECRET", "hostile-input-secret-0123456789");
// The sign-in cases below sign in through next-auth with the development sign-in.
vi.stubEnv("NEXTAUTH_URL", "http://portal.test");
vi.stubEnv("PORTAL_DEV_LOGIN", "1");

/** The offers service's admin API: a stub that knows one game and no players. */
const offersStub: typeof fetch = async (input) => {
  const url = new URL(String(input instanceof Request ? input.url : input));
  if (url.pathname === "/v1/admin/games") return Response.json({ games: [] });
  if (/^\/v1\/admin\/games\/[^/]+\/players$/.test(url.pathname)) return Response.json({ players: [] });
  return Response.json({ message: "player-not-found" }, { status: 404 });
};

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
interface Example {
  params?: Record<string, string | string[]>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Json;
}

const apiDir = path.resolve("app/api");
const component = "checkout-api";
const someId = "00000000-0000-4000-8000-000000000000";
const offer = { gameId: "demo-game", offerId: "streak-bonus" };
const definition: { [key: string]: Json } = {
  offerId: "streak-bonus",
  name: "Streak bonus",
  description: "For loyal players",
  image: "https://example.com/streak.png",
  rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 50 }],
  completionConditions: [{ kind: "spendCurrency", id: "gold", name: "Gold", amount: 100 }],
  realTime: true,
  durationSeconds: 86_400,
  audience: { all: [{ field: "loginStreak", op: "gte", value: 3 }, { field: "username", op: "in", value: ["Aria", "Bram"] }, { not: { field: "levels.main.level", op: "between", value: [1, 5] } }] },
  schedule: { startsAt: "2026-12-01T00:00:00Z", endsAt: "2026-12-31T00:00:00Z" },
  limits: { maxActivationsPerPlayer: 1, cooldownSeconds: 0 },
  rollout: 50,
};
const { offerId: _offerId, ...definitionBody } = definition;
const order = { name: "fuzz-app", displayName: "Fuzz app", kind: "service", owners: [{ user: "admin" }], environments: ["dev"], dependencies: { redis: true }, repoPath: "commerce/fuzz-app" };

/** A valid request per route and method: its string leaves are the positions the tests fill. */
const examples: Record<string, Partial<Record<Method, Example>>> = {
  "": { GET: {} },
  "[...path]": Object.fromEntries((["GET", "POST", "PUT", "PATCH", "DELETE"] as const).map((m) => [m, { params: { path: ["nope", "deeper"] } }])),
  "app-order-requests": { GET: { query: { status: "pending", requester: "me" } }, POST: { body: order } },
  "app-order-requests/[id]/approve": { POST: { params: { id: someId } } },
  "app-order-requests/[id]/reject": { POST: { params: { id: someId }, body: { reason: "not now" } } },
  "app-order-requests/open-merge-requests": { GET: {} },
  "app-order-requests/pending/count": { GET: {} },
  "merge-requests": { GET: { query: { component, state: "all", author: "admin", "mine-to-review": "true" } } },
  "merge-requests/[id]": { GET: { params: { id: "1" } } },
  "merge-requests/[id]/approve": { POST: { params: { id: "1" } } },
  "merge-requests/[id]/merge": { POST: { params: { id: "1" } } },
  "merge-requests/[id]/close": { POST: { params: { id: "1" }, body: { reason: "not now" } } },
  audit: {
    GET: { query: { actor: "alice", action: "order", targetType: "component", target: component, component, requestId: "r-1", from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z", limit: "10" } },
  },
  "auth/logout": { POST: {} },
  "cache/refresh": { POST: { query: { name: component } } },
  components: { GET: { query: { q: "check", kind: "service", owner: "alice", group: "commerce/backend", environment: "dev", dependency: "mongo", level: "gold", sort: "level", order: "asc", page: "1", pageSize: "10" } } },
  "components/[name]": {
    GET: { params: { name: component } },
    PUT: { params: { name: component }, headers: { "if-match": "*" }, body: validComponent(component) as unknown as Json },
    PATCH: { params: { name: component }, headers: { "if-match": "*" }, body: { metadata: { displayName: "Checkout" } } },
  },
  "components/[name]/apis/[api]": { GET: { params: { name: component, api: "checkout" }, query: { ref: "main" } } },
  "components/[name]/config": {
    GET: { params: { name: component }, query: { view: "persistent" } },
    POST: { params: { name: component }, body: { environment: "dev", values: { LOG_LEVEL: "info" }, view: "persistent" } },
  },
  "components/[name]/config/bulk": { POST: { params: { name: component }, body: { updates: [{ environment: "dev", values: { LOG_LEVEL: "debug" } }], view: "persistent" } } },
  "components/[name]/graph": { GET: { params: { name: component }, query: { depth: "3", direction: "both" } } },
  "owners/[owner]": { GET: { params: { owner: "commerce/backend" } } },
  "components/[name]/favorite": { POST: { params: { name: component } }, DELETE: { params: { name: component } } },
  "components/[name]/open-merge-requests": { GET: { params: { name: component } } },
  "components/[name]/releases": {
    GET: { params: { name: component }, query: { environment: "staging" } },
    POST: { params: { name: component }, body: { environment: "staging", sourceRef: "main", releaseType: "minor" } },
  },
  "components/[name]/status": { GET: { params: { name: component } } },
  "components/favorites": { GET: {} },
  "import/components": { POST: { body: { repositories: ["commerce/checkout-api", { path: "growth/quest-engine", kind: "service" }], dryRun: true, format: "inferred" } } },
  "import/owners": { GET: {} },
  "import/repositories": { GET: { query: { owner: "commerce", search: "check", page: "1", perPage: "10" } } },
  "offers/games": { GET: {} },
  "offers/games/[gameId]/players": { GET: { params: { gameId: "demo-game" }, query: { q: "play", limit: "5" } } },
  "offers/games/[gameId]/players/[playerId]": { GET: { params: { gameId: "demo-game", playerId: "player-1" } } },
  "offers/games/[gameId]/players/[playerId]/timeline": { GET: { params: { gameId: "demo-game", playerId: "player-1" }, query: { kinds: "offer,support", limit: "20" } } },
  "offers/games/[gameId]/players/[playerId]/watch": { GET: { params: { gameId: "demo-game", playerId: "player-1" } } },
  "offers/games/[gameId]/players/[playerId]/support-grants": {
    POST: { params: { gameId: "demo-game", playerId: "player-1" }, headers: { "idempotency-key": "grant-key-1" }, body: { kind: "coins", rewardId: "gold", amount: 100, reason: "Lost during the outage" } },
  },
  "offers/games/[gameId]/players/[playerId]/offers": { POST: { params: { gameId: "demo-game", playerId: "player-1" }, body: { offerId: "welcome-pack", reason: "Missed it in the outage" } } },
  ...Object.fromEntries(
    (["expire", "revoke", "make-claimable"] as const).map((action) => [
      `offers/games/[gameId]/players/[playerId]/offers/[instanceId]/${action}`,
      { POST: { params: { gameId: "demo-game", playerId: "player-1", instanceId: "instance-1" }, body: { reason: "Stuck after the outage" } } },
    ]),
  ),
  "offers/games/[gameId]/players/[playerId]/offers/[instanceId]/extend": {
    POST: { params: { gameId: "demo-game", playerId: "player-1", instanceId: "instance-1" }, body: { reason: "More time after the outage", expiresAt: "2026-12-09T12:00:00.000Z" } },
  },
  "offers/games/[gameId]/players/[playerId]/deliveries": { GET: { params: { gameId: "demo-game", playerId: "player-1" } } },
  "offers/games/[gameId]/players/[playerId]/deliveries/replay": { POST: { params: { gameId: "demo-game", playerId: "player-1" }, body: { deliveryId: 1, reason: "Webhook lost" } } },
  "offers/games/[gameId]/support-grants": { GET: { params: { gameId: "demo-game" }, query: { status: "pending", playerId: "player-1", limit: "5" } } },
  "offers/games/[gameId]/support-grants/[grantId]/approve": { POST: { params: { gameId: "demo-game", grantId: "grant-1" }, body: { reason: "Checked the logs" } } },
  "offers/games/[gameId]/support-thresholds": { GET: { params: { gameId: "demo-game" } }, PUT: { params: { gameId: "demo-game" }, body: { rules: [{ kind: "coins", approvalAbove: 1000 }, { kind: "loyalty_currency", approvalAbove: "always" }] } } },
  "offers/games/[gameId]/support-grants/[grantId]/reject": { POST: { params: { gameId: "demo-game", grantId: "grant-1" }, body: { reason: "Already compensated" } } },
  // Multipart uploads (read by the handler, not as JSON): their examples carry no JSON body.
  "offers/games/[gameId]/bulk-compensations": { GET: { params: { gameId: "demo-game" }, query: { status: "pending", limit: "5" } }, POST: { params: { gameId: "demo-game" }, headers: { "idempotency-key": "bulk-key-1" } } },
  "offers/games/[gameId]/bulk-compensations/preview": { POST: { params: { gameId: "demo-game" } } },
  "offers/games/[gameId]/bulk-compensations/[jobId]": { GET: { params: { gameId: "demo-game", jobId: "bc_1" } } },
  "offers/games/[gameId]/bulk-compensations/[jobId]/result": { GET: { params: { gameId: "demo-game", jobId: "bc_1" } } },
  "offers/games/[gameId]/bulk-compensations/[jobId]/approve": { POST: { params: { gameId: "demo-game", jobId: "bc_1" }, body: { reason: "Incident confirmed" } } },
  "offers/games/[gameId]/bulk-compensations/[jobId]/reject": { POST: { params: { gameId: "demo-game", jobId: "bc_1" }, body: { reason: "Not ours" } } },
  "offers/games/[gameId]/bulk-compensations/[jobId]/cancel": { POST: { params: { gameId: "demo-game", jobId: "bc_1" }, body: { reason: "Wrong list" } } },
  "offers/games/[gameId]/definitions": { GET: { params: { gameId: "demo-game" }, query: { days: "7" } }, POST: { params: { gameId: "demo-game" }, body: definition } },
  "offers/games/[gameId]/definitions/[offerId]": {
    GET: { params: offer },
    PUT: { params: offer, headers: { "if-match": '"etag-1"' }, body: definitionBody },
  },
  "offers/games/[gameId]/definitions/[offerId]/activate": { POST: { params: offer, headers: { "if-match": '"etag-1"' } } },
  "offers/games/[gameId]/definitions/[offerId]/pause": { POST: { params: offer, headers: { "if-match": '"etag-1"' } } },
  "offers/games/[gameId]/definitions/[offerId]/archive": { POST: { params: offer, headers: { "if-match": '"etag-1"' } } },
  "offers/games/[gameId]/definitions/[offerId]/restore": { POST: { params: offer, headers: { "if-match": '"etag-1"' } } },
  "offers/games/[gameId]/definitions/[offerId]/preview": { POST: { params: offer, body: { playerId: "player-1" } } },
  "offers/games/[gameId]/definitions/[offerId]/funnel": { GET: { params: offer, query: { days: "7" } } },
  "offers/games/[gameId]/definitions/[offerId]/jobs": { GET: { params: offer } },
  "offers/games/[gameId]/audience/count": { POST: { params: { gameId: "demo-game" }, body: { audience: definition.audience!, rollout: 50, offerId: "streak-bonus" } } },
  "offers/games/[gameId]/webhooks": { GET: { params: { gameId: "demo-game" } } },
  "offers/games/[gameId]/webhooks/endpoints": {
    POST: { params: { gameId: "demo-game" }, body: { url: "https://hooks.example.com/rewards", description: "game server", eventTypes: ["reward.granted"], enabled: true } },
  },
  "offers/games/[gameId]/webhooks/endpoints/[endpointId]": {
    GET: { params: { gameId: "demo-game", endpointId: "ep_1" } },
    PATCH: { params: { gameId: "demo-game", endpointId: "ep_1" }, headers: { "if-match": '"etag-1"' }, body: { description: "eu", enabled: false } },
    DELETE: { params: { gameId: "demo-game", endpointId: "ep_1" }, headers: { "if-match": '"etag-1"' } },
  },
  "offers/games/[gameId]/webhooks/endpoints/[endpointId]/rotate-secret": { POST: { params: { gameId: "demo-game", endpointId: "ep_1" }, headers: { "if-match": '"etag-1"' } } },
  "offers/games/[gameId]/webhooks/endpoints/[endpointId]/test": { POST: { params: { gameId: "demo-game", endpointId: "ep_1" } } },
  "offers/games/[gameId]/webhooks/deliveries": { GET: { params: { gameId: "demo-game" }, query: { status: "failed", endpointId: "ep_1", before: "10", limit: "5" } } },
  "offers/games/[gameId]/webhooks/deliveries/[deliveryId]/replay": { POST: { params: { gameId: "demo-game", deliveryId: "1" } } },
  "offers/games/[gameId]/webhooks/replay": { POST: { params: { gameId: "demo-game" }, body: { from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z", endpointId: "ep_1" } } },
  options: { GET: {} },
  "openapi.json": { GET: {} },
  "resource-requests": { GET: { query: { component, environment: "dev", resource: "redis", status: "requested" } } },
  scorecards: { GET: {} },
  "scorecards/rules": { GET: {}, POST: { body: { yaml: "levels: [bronze]\nrules:\n  - { id: owners, title: Owners, level: bronze, check: { type: minOwners, count: 1 } }\n" } } },
  tokens: { GET: {}, POST: { body: { name: "ci" } } },
  "tokens/[id]": { DELETE: { params: { id: someId } } },
};
// next-auth's own endpoints need Next's request scope; only the boundary rule (before next-auth runs) is driven here.
const boundaryOnly: Record<string, Partial<Record<Method, Example>>> = {
  "auth/[...nextauth]": { GET: { params: { nextauth: ["session"] } }, POST: { params: { nextauth: ["signout"] } } },
};

/** Every route folder under app/api (relative, "" for /api itself). */
function routeFolders(dir = apiDir): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) found.push(...routeFolders(full));
    else if (entry === "route.ts") found.push(path.relative(apiDir, dir).split(path.sep).join("/"));
  }
  return found.sort();
}

const modules: Record<string, Record<string, RouteHandler>> = {};
let admin: Record<string, string>;

/** The URL of a route folder with its dynamic segments filled from the example's params. */
function urlOf(folder: string, example: Example): string {
  const segments = folder
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      const dynamic = /^\[(\.\.\.)?(\w+)\]$/.exec(segment);
      if (!dynamic) return segment;
      const value = example.params?.[dynamic[2]!] ?? "x";
      return (Array.isArray(value) ? value : [value]).map(encodeSegment).join("/");
    });
  const query = new URLSearchParams(example.query ?? {}).toString();
  return `http://portal.test/api${segments.length ? `/${segments.join("/")}` : ""}${query ? `?${query}` : ""}`;
}

/** The URL only decorates the request (handlers read params from the context); a lone surrogate has no encoding. */
function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "x";
  }
}

function send(folder: string, method: Method, example: Example): Promise<Response> {
  const handler = modules[folder]![method]!;
  const headers: Record<string, string> = { ...admin, ...(example.headers ?? {}) };
  if (example.body !== undefined) headers["content-type"] = "application/json";
  const request = new Request(urlOf(folder, example), { method, headers, body: example.body === undefined ? undefined : JSON.stringify(example.body) });
  return handler(request, { params: Promise.resolve(example.params ?? {}) });
}

type Position = { part: "params" | "query" | "body"; path: Array<string | number>; key?: boolean };

/** Every string position of an example: path and query values, body values and object keys. */
function positionsOf(example: Example): Position[] {
  const out: Position[] = [];
  for (const [key, value] of Object.entries(example.params ?? {})) {
    if (Array.isArray(value)) value.forEach((_, i) => out.push({ part: "params", path: [key, i] }));
    else out.push({ part: "params", path: [key] });
  }
  for (const key of Object.keys(example.query ?? {})) out.push({ part: "query", path: [key] });
  const walk = (value: Json, at: Array<string | number>) => {
    if (typeof value === "string") out.push({ part: "body", path: at });
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...at, i]));
    else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        out.push({ part: "body", path: [...at, k], key: true });
        walk(v, [...at, k]);
      }
    }
  };
  if (example.body !== undefined) walk(example.body, []);
  return out;
}

/** The example with `text` at a position (a key position renames the key). */
function withString(example: Example, position: Position, text: string): Example {
  const copy = structuredClone(example);
  const root = (position.part === "body" ? { body: copy.body } : position.part === "params" ? copy.params : copy.query) as Record<string | number, unknown>;
  const trail = position.part === "body" ? ["body", ...position.path] : position.path;
  let parent = root;
  for (const step of trail.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = trail[trail.length - 1]!;
  if (position.key) {
    const entries = Object.entries(parent).map(([k, v]) => (k === String(last) ? [text, v] : [k, v]));
    for (const k of Object.keys(parent)) delete parent[k];
    Object.assign(parent, Object.fromEntries(entries));
  } else parent[last] = text;
  if (position.part === "body") copy.body = (root as { body: Json }).body;
  return copy;
}

const cases = () =>
  Object.entries(examples).flatMap(([folder, methods]) => Object.entries(methods).map(([method, example]) => ({ folder, method: method as Method, example: example! })));

let portal: PortalTest;
beforeAll(async () => {
  portal = await startPortalTest({
    components: { [`${component}.yaml`]: yamlOf(validComponent(component), "the checkout") },
    settings: (settings) => ({
      ...settings,
      offersAdmin: () => ({ baseUrl: "http://offers.test", token: "stub-admin-token-0123456789", fetch: offersStub }),
      // The stub answers player-not-found wherever it knows nothing, which the real service does not: the routes'
      // OpenAPI tables of codes are checked by their own tests, against answers the service gives.
      checkErrorDocs: false,
    }),
  });
  await ensureDemoRepositories(portal.gitops.scm as LocalScmProvider, DEMO_REPOSITORIES.filter((r) => ["commerce/checkout-api", "growth/quest-engine"].includes(r.path)));
  admin = await portal.signIn({ id: "admin", name: "Admin", roles: ["admin"] });
  for (const folder of [...Object.keys(examples), ...Object.keys(boundaryOnly)]) {
    modules[folder] = (await import(/* @vite-ignore */ `@/app/api/${folder ? `${folder}/` : ""}route`)) as Record<string, RouteHandler>;
  }
}, 120_000);
afterAll(async () => {
  await portal?.close();
  vi.unstubAllEnvs();
});

describe("every portal API route", () => {
  it("has an example here for each method it exports (a new route must be added)", () => {
    expect(routeFolders()).toEqual([...Object.keys(examples), ...Object.keys(boundaryOnly)].sort());
    for (const [folder, methods] of Object.entries({ ...examples, ...boundaryOnly })) {
      const exported = Object.keys(modules[folder]!).filter((k) => /^[A-Z]+$/.test(k) && !["HEAD", "OPTIONS"].includes(k));
      expect(exported.sort(), folder).toEqual(Object.keys(methods).sort());
    }
  });

  it("answers its example without a 5xx", async () => {
    for (const { folder, method, example } of cases()) {
      const response = await send(folder, method, example);
      expect(response.status, `${method} /api/${folder}`).toBeLessThan(500);
      await response.body?.cancel();
    }
  }, 120_000);

  it("answers 400 invalid-request for U+0000 in every string position", async () => {
    const all = [...cases(), ...Object.entries(boundaryOnly).flatMap(([folder, methods]) => Object.entries(methods).map(([method, example]) => ({ folder, method: method as Method, example: example! })))];
    for (const { folder, method, example } of all) {
      const positions = [...positionsOf(example), { part: "query", path: ["unexpected"] } as Position];
      for (const position of positions) {
        const hostile = withString({ ...example, query: { ...example.query, ...(position.path[0] === "unexpected" ? { unexpected: "" } : {}) } }, position, "a\u0000b");
        const response = await send(folder, method, hostile);
        const where = `${method} /api/${folder} ${position.part}.${position.path.join(".")}${position.key ? " (key)" : ""}`;
        expect(response.status, where).toBe(400);
        expect(await response.json(), where).toMatchObject({ message: "invalid-request", detail: expect.stringContaining("U+0000") });
      }
    }
  }, 120_000);

  it("answers 400 JSON in the proxy for a path whose percent-encoding is not UTF-8, in every segment", async () => {
    const { proxy } = await import("@/proxy");
    for (const folder of routeFolders()) {
      const segments = ["api", ...folder.split("/").filter(Boolean).map((s) => (s.startsWith("[") ? "x" : s))];
      for (let i = 1; i < segments.length; i++) {
        for (const bad of ["%ff%fe", "%c0%ae", "%ed%a0%80", "%"]) {
          const pathname = "/" + segments.map((s, j) => (j === i ? bad : s)).join("/");
          const response = proxy(new NextRequest(`http://portal.test${pathname}`));
          expect(response.status, pathname).toBe(400);
          expect(await response.json(), pathname).toMatchObject({ message: "invalid-request" });
        }
      }
    }
  });
});

/**
 * Route folders whose bodies are the offers service's contract (lib/offers/contract/, shared through
 * lib/offers-client/schemas.ts): they refuse unknown keys when that contract does.
 */
const OFFERS_CONTRACT_BODIES = /^offers\//;
/** Body positions that are maps by design (config keys and their values), where any key is data. */
const MAP_POSITIONS = [/^values$/, /^updates\.\d+\.values$/];
/** Routes whose body becomes a catalog record: an unknown key is the record's 422 invalid-record, naming it. */
const RECORD_BODIES = new Set(["PUT components/[name]", "PATCH components/[name]"]);

/** Every object in a body (its root included), by path, except the map positions. */
function objectPaths(value: Json, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...at, i]));
  if (!value || typeof value !== "object") return [];
  if (MAP_POSITIONS.some((pattern) => pattern.test(at.join(".")))) return [];
  return [at, ...Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...at, k]))];
}

function withKey(body: Json, at: Array<string | number>, key: string): Json {
  const copy = structuredClone(body);
  let node = copy as Record<string | number, Json>;
  for (const step of at) node = node[step] as Record<string | number, Json>;
  node[key] = 1;
  return copy;
}

describe("unknown keys in every body", () => {
  it("every mutating route refuses an unknown key at every level of its body, naming it (400; 422 for a catalog record)", async () => {
    const failures: string[] = [];
    for (const { folder, method, example } of cases()) {
      if (example.body === undefined) continue;
      for (const at of objectPaths(example.body)) {
        const where = `${method} /api/${folder} body${at.map((k) => `.${k}`).join("")}.unexpectedKey`;
        const response = await send(folder, method, { ...example, body: withKey(example.body, at, "unexpectedKey") });
        const answer = (await response.json()) as { message?: string; issues?: Array<{ path: string[]; message: string }> };
        const expected = RECORD_BODIES.has(`${method} ${folder}`) ? { status: 422, message: "invalid-record" } : { status: 400, message: "invalid-request" };
        const named = answer.issues?.some((issue) => issue.path.join(".") === [...at.map(String), "unexpectedKey"].join("."));
        if (OFFERS_CONTRACT_BODIES.test(folder)) {
          // The contract's own wording names the key or the rule it breaks (an audience group "has only the key all").
          if (response.status === 400 && answer.message === "invalid-request") continue;
        } else if (response.status === expected.status && answer.message === expected.message && named) continue;
        failures.push(`${where} → ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

// Generated strings: any code point, every C0 and C1 control character, lone surrogates, characters
// that mean something to paths, YAML or shells, and long strings.
const controlCharacter = fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f })).map((c) => String.fromCharCode(c));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const character = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: controlCharacter },
  { weight: 1, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: fc.constantFrom("/", "..", "%", "%00", "\\", "'", '"', "$(", "{{", ": ", "- ", "#", "&", "*", "!", "\u2028", "\ufeff", "😀") },
);
const hostileString = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: character, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: character, minLength: 1_000, maxLength: 5_000 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "-", "--help", "HEAD", "main..HEAD", "refs/heads/../../x", "a".repeat(300)) },
);

describe("property: generated strings in every string position of every route", () => {
  it("never answer a 5xx", async () => {
    const targets = cases().flatMap(({ folder, method, example }) => positionsOf(example).map((position) => ({ folder, method, example, position })));
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), hostileString, async ({ folder, method, example, position }, text) => {
        const response = await send(folder, method, withString(example, position, text));
        await response.body?.cancel();
        if (response.status >= 500) failures.push(`${method} /api/${folder} ${position.part}.${position.path.join(".")}: ${JSON.stringify(text).slice(0, 80)} → ${response.status}`);
        return response.status < 500;
      }),
      { ...fuzzParameters(100), interruptAfterTimeLimit: 150_000 },
    );
    expect(failures).toEqual([]);
  }, 240_000);
});

describe("sign-in with hostile input", () => {
  it("a GET of the development sign-in's callback (a form POST) goes to the sign-in page, not a 500", async () => {
    const { GET: forward } = await import("@/app/auth/[provider]/callback/route");
    const forwarded = await forward(new Request("http://portal.test/auth/dev/callback"), { params: Promise.resolve({ provider: "dev" }) });
    expect(forwarded.status).toBe(307);
    const response = await modules["auth/[...nextauth]"]!.GET!(new Request(`http://portal.test${forwarded.headers.get("location")}`), { params: Promise.resolve({ nextauth: ["callback", "dev"] }) });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/auth/signin");
  });

  it("property: a sign-in with any callbackUrl lands on a page of the portal, never a 5xx", async () => {
    const callbackUrl = fc.oneof(
      hostileString,
      fc.constantFrom("\\\\other-host/x", "\\/other-host/x", "/\\other-host", "//other-host", "/\t/other-host", "https://other-host/x", "http:other-host", "javascript:alert(1)", "http://[::1"),
      hostileString.map((text) => `\\\\${text}`),
    );
    await fc.assert(
      fc.asyncProperty(callbackUrl, async (url) => {
        const answer = await devSignInThroughNextAuth("http://portal.test", "lee", url);
        return answer.signedIn && typeof answer.redirect === "string" && new URL(answer.redirect).origin === "http://portal.test";
      }),
      { ...fuzzParameters(60), interruptAfterTimeLimit: 60_000 },
    );
  }, 120_000);
});
