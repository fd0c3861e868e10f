/**
 * Strings PostgreSQL cannot store (U+0000, UTF-16 surrogates without their pair) answer 400
 * invalid-request wherever they are sent (body fields and record keys, path, query), or the JWT
 * code inside a token, and change nothing stored. Player ids follow one rule on every route.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryEventBus } from "../events";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { createEventStream } from "./sse";
import { startOffersTestApp, storedStateDigest, type OffersTestContext } from "@/test-support/offers/test-app";

const ADMIN = "test-admin-token-0123456789";
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const coins = { kind: "coins", rewardId: "c", name: "Coins", amount: 1 };

/** Every way a string can fail to be storable text. */
const badTexts: Array<[string, string]> = [
  ["U+0000", "a\u0000b"],
  ["U+0000 alone", "\u0000"],
  ["a lone high surrogate", "a\ud800b"],
  ["a lone low surrogate", "\udc00"],
  ["reversed pair", "\udc00\ud800"],
];

describe.each(testDatabaseTargets())("text that cannot be stored, on %s", (target) => {
  let t: OffersTestContext;
  let jwt: string;
  let now: number;
  const admin = { authorization: `Bearer ${ADMIN}` };
  const signed = (payload: Record<string, unknown>) => {
    const input = `${b64({ alg: "HS256", typ: "JWT" })}.${b64(payload)}`;
    return `${input}.${createHmac("sha256", t.game.apiKey).update(input).digest("base64url")}`;
  };

  beforeAll(async () => {
    const stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 60_000, staleTimeoutMs: 60_000 });
    t = await startOffersTestApp(target, { eventStream: stream, adminToken: ADMIN });
    now = Math.floor(t.clock.now().getTime() / 1000);
    jwt = await t.jwt("p1");
    expect((await t.post("/v1/player/snapshot", { playerId: "p1", username: "one" }, t.apiHeaders())).status).toBe(200);
  });
  afterAll(async () => t?.close());

  /** Requests with `bad` in one string position each; every one of them is refused. */
  const positions = (bad: string) => {
    const api = { ...t.apiHeaders(), "content-type": "application/json" };
    const definition = { name: "n", rewards: [coins], durationSeconds: 60 };
    // encodeURIComponent refuses a lone surrogate; its WTF-8 bytes are what a client would send.
    const wellFormed = !/\p{Cs}/u.test(bad);
    const q = wellFormed ? encodeURIComponent(bad) : "x%ED%A0%80";
    return [
      { label: "snapshot username", method: "POST", url: "/v1/player/snapshot", headers: api, payload: { playerId: "p1", username: bad } },
      { label: "snapshot currency id (record key)", method: "POST", url: "/v1/player/snapshot", headers: api, payload: { playerId: "p1", currencies: { [bad]: { balance: 1, in: 1, out: 0 } } } },
      { label: "snapshot level name (record key)", method: "POST", url: "/v1/player/snapshot", headers: api, payload: { playerId: "p1", levels: { [bad]: { level: 2 } } } },
      { label: "definition name", method: "PUT", url: "/v1/offers/definitions/o1", headers: api, payload: { ...definition, name: bad } },
      { label: "definition description", method: "PUT", url: "/v1/offers/definitions/o1", headers: api, payload: { ...definition, description: bad } },
      { label: "reward name", method: "PUT", url: "/v1/offers/definitions/o1", headers: api, payload: { ...definition, rewards: [{ ...coins, name: bad }] } },
      { label: "condition name", method: "PUT", url: "/v1/offers/definitions/o1", headers: api, payload: { ...definition, completionConditions: [{ kind: "spendCurrency", id: "gold", name: bad, amount: 1 }] } },
      { label: "currency name", method: "PUT", url: "/v1/currencies/gold", headers: api, payload: { name: bad, image: "https://img.example/g.png" } },
      { label: "referral reward id", method: "POST", url: "/v1/referrals", headers: api, payload: { referrerId: "p1", refereeId: "p2", rewards: [{ ...coins, rewardId: bad }] } },
      { label: "client claim instanceId", method: "POST", url: "/v1/client/reward/claim", headers: { "x-game-jwt": jwt, "content-type": "application/json" }, payload: { kind: "offer", instanceId: bad } },
      { label: "server claim instanceId", method: "POST", url: "/v1/reward/sdk/claim", headers: api, payload: { kind: "offer", instanceId: bad, playerId: "p1" } },
      { label: "redeem token", method: "POST", url: "/v1/auth/one_time_token/redeem", headers: { "content-type": "application/json" }, payload: { token: bad, gameId: "game-a" } },
      { label: "unknown body field", method: "POST", url: "/v1/client/player/campaigns", headers: { "x-game-jwt": jwt, "content-type": "application/json" }, payload: { note: bad } },
      { label: "admin path gameId", method: "GET", url: `/v1/admin/games/${q}/players`, headers: admin },
      { label: "admin path playerId", method: "GET", url: `/v1/admin/games/game-a/players/${q}`, headers: admin },
      { label: "admin watch playerId", method: "GET", url: `/v1/admin/games/game-a/players/${q}/watch`, headers: admin },
      { label: "admin query q", method: "GET", url: `/v1/admin/games/game-a/players?q=${q}`, headers: admin },
      { label: "definition path offerId", method: "PUT", url: `/v1/offers/definitions/${q}`, headers: api, payload: definition },
    ] as const;
  };

  it("answers 400 invalid-request with the issue's path, and stores nothing, for every position", async () => {
    const before = await storedStateDigest(t.database.db);
    for (const [what, bad] of badTexts) {
      for (const request of positions(bad)) {
        const res = await t.inject({ ...request, payload: "payload" in request ? JSON.stringify(request.payload) : undefined });
        const label = `${request.label} with ${what}: ${res.body.slice(0, 200)}`;
        // A query with a lone surrogate is not valid UTF-8 and is decoded to U+FFFD: a harmless search.
        if (request.label === "admin query q" && !what.includes("U+0000")) {
          expect(res.statusCode, label).toBeLessThan(500);
          continue;
        }
        expect(res.statusCode, label).toBe(400);
        expect(res.json().message, label).toBe("invalid-request");
        expect(res.json().issues.length, label).toBeGreaterThan(0);
      }
    }
    expect(await storedStateDigest(t.database.db)).toBe(before);
  });

  it("names the field and the record key at fault", async () => {
    const res = await t.post("/v1/player/snapshot", { playerId: "p1", currencies: { "g\u0000": { balance: 1, in: 1, out: 0 } }, username: "x\ud800" }, t.apiHeaders());
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual(
      expect.arrayContaining([
        { path: ["currencies", "g\u0000"], message: "key must not contain U+0000 (NUL)" },
        { path: ["username"], message: expect.stringContaining("surrogate") },
      ]),
    );
  });

  it("keeps well-formed text as sent: controls other than NUL, emoji, other scripts", async () => {
    const name = "Tab\there, line\nbreak, bell\u0007, 😀, Ünïcödé, 日本";
    const res = await t.inject({ method: "PUT", url: "/v1/currencies/gold", headers: t.apiHeaders(), payload: { name, image: "https://img.example/g.png" } });
    expect(res.statusCode).toBe(200);
    expect(res.json().name).toBe(name);
  });

  it("answers a path that is not percent-encoded UTF-8 with 400 invalid-request", async () => {
    for (const path of ["%ff%fe", "%c0%ae", "%ED%A0%80", "%e2%82"]) {
      const res = await t.inject({ method: "GET", url: `/v1/admin/games/game-a/players/${path}`, headers: admin });
      expect(res.statusCode, path).toBe(400);
      expect(res.json().message, path).toBe("invalid-request");
    }
  });

  it("answers the JWT codes for NUL and lone surrogates in iss and sub, on the client API and the stream", async () => {
    for (const [, bad] of badTexts) {
      for (const url of ["/v1/client/player/campaigns", "/v1/sse/connect"]) {
        const method = url.endsWith("connect") ? "GET" : "POST";
        const call = (token: string) => t.inject({ method, url, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, payload: method === "POST" ? "{}" : undefined });
        // No game can have such an id: unknown-gameId, without looking it up.
        const iss = await call(signed({ iss: `game-a${bad}`, sub: "p1", exp: now + 60 }));
        expect({ status: iss.statusCode, body: iss.json() }, `${url} iss ${JSON.stringify(bad)}`).toEqual({ status: 401, body: { message: "unknown-gameId" } });
        // A genuine token whose sub names no possible player: jwt-invalid.
        const sub = await call(signed({ iss: "game-a", sub: `p${bad}`, exp: now + 60 }));
        expect({ status: sub.statusCode, body: sub.json() }, `${url} sub ${JSON.stringify(bad)}`).toEqual({ status: 401, body: { message: "jwt-invalid" } });
      }
    }
  });
});

describe.each(testDatabaseTargets())("one rule for player ids, on %s", (target) => {
  let t: OffersTestContext;
  let now: number;
  const admin = { authorization: `Bearer ${ADMIN}` };
  const signed = (payload: Record<string, unknown>) => {
    const input = `${b64({ alg: "HS256", typ: "JWT" })}.${b64(payload)}`;
    return `${input}.${createHmac("sha256", t.game.apiKey).update(input).digest("base64url")}`;
  };

  beforeAll(async () => {
    const stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 60_000, staleTimeoutMs: 60_000 });
    t = await startOffersTestApp(target, { eventStream: stream, adminToken: ADMIN });
    now = Math.floor(t.clock.now().getTime() / 1000);
    expect((await t.inject({ method: "PUT", url: "/v1/offers/definitions/gift", headers: t.apiHeaders(), payload: { name: "Gift", rewards: [coins], durationSeconds: 3600 } })).statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  /** Every place a player id enters the API, and whether it was accepted (not refused for its form). */
  const everywhere = async (playerId: string) => {
    const api = t.apiHeaders();
    // Dots too, or "." and ".." would be resolved away before the router sees them.
    const path = encodeURIComponent(playerId).replace(/\./g, "%2E");
    const results = {
      jwtSub: (await t.post("/v1/client/player/campaigns", {}, { "x-game-jwt": signed({ iss: "game-a", sub: playerId, exp: now + 60 }) })).status,
      refresh: (await t.post("/v1/player/campaigns/refresh", { playerId }, api)).status,
      snapshot: (await t.post("/v1/player/snapshot", { playerId }, api)).status,
      assign: (await t.post("/v1/player/offers/assign", { playerId, offerId: "gift" }, api)).status,
      sdkClaim: (await t.post("/v1/reward/sdk/claim", { playerId, kind: "offer", instanceId: "no-such-instance" }, api)).status,
      referrer: (await t.post("/v1/referrals", { referrerId: playerId, refereeId: `r-${Math.random().toString(36).slice(2)}`, rewards: [coins] }, api)).status,
      referee: (await t.post("/v1/referrals", { referrerId: "somebody", refereeId: playerId, rewards: [coins] }, api)).status,
      adminPath: (await t.inject({ method: "GET", url: `/v1/admin/games/game-a/players/${path}`, headers: admin })).statusCode,
    };
    return results;
  };

  it("refuses, on every route, the ids the JWT used to accept (😀, ../../admin, …)", async () => {
    const refused = ["😀", "../../admin", "a/b", "..", ".", "a:b", "a b", "é", "-rf", "x".repeat(201), "p%00"];
    for (const playerId of refused) {
      const { adminPath, ...results } = await everywhere(playerId);
      expect(results, playerId).toEqual({ jwtSub: 401, refresh: 400, snapshot: 400, assign: 400, sdkClaim: 400, referrer: 400, referee: 400 });
      // "." and ".." (even as %2E%2E) are resolved away by URL parsing: the path names the player
      // list or nothing, never a player.
      if (/^\.+$/.test(playerId)) expect([200, 404], playerId).toContain(adminPath);
      else expect(adminPath, playerId).toBe(400);
    }
  });

  it("accepts, on every route, the ids games use (UUIDs, numbers, e-mail addresses, auth0|… subjects)", async () => {
    const accepted = ["550e8400-e29b-41d4-a716-446655440000", "1234567890", "player.one+test@example.com", "auth0|5f7c8ec7c33c6c004bbafe82", "_x", "a=b~c", "x".repeat(200)];
    for (const playerId of accepted) {
      const results = await everywhere(playerId);
      // sdkClaim: the instance does not exist (404); the id itself was accepted.
      expect(results, playerId).toEqual({ jwtSub: 200, refresh: 200, snapshot: 200, assign: 200, sdkClaim: 404, referrer: 200, referee: 200, adminPath: 200 });
    }
  });
});
