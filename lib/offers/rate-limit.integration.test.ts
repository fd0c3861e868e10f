/**
 * Rate limits as callers meet them: over the budget a limited route answers 429
 * {"message": "rate-limited"} with Retry-After and RateLimit-* headers; each player of a game
 * environment has a client budget, each game environment a server budget, so two games, two
 * players, and live and test of one game never share one; a refused credential spends nothing; a
 * game's own budget set through the admin API or the CLI applies at once; the admin API, probes
 * and the document are not limited; a Redis that is away lets requests through; and two instances
 * on one Redis spend one budget. The event stream's connects spend the client budget too.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { freePort } from "@/test-support/throwaway";
import { MemoryEventBus } from "../events";
import { buildOffersApp } from "./app";
import { buildOffersOpenApiDocument } from "./openapi";
import { createEventStream } from "./sse";
import { offersStorage, runCli, startOffersTestApp, type OffersTestContext, type TestGame } from "@/test-support/offers/test-app";

const ADMIN = { authorization: "Bearer test-admin-token-0123456789" };
const CLIENT_LIMIT = 3;
const SERVER_LIMIT = 2;
const redisUrl = process.env.TEST_REDIS_URL;

describe.each(testDatabaseTargets())("rate limits on %s", (target) => {
  let t: OffersTestContext;
  let gameB: TestGame;

  beforeAll(async () => {
    t = await startOffersTestApp(target, { rateLimit: { clientPerMinute: CLIENT_LIMIT, serverPerMinute: SERVER_LIMIT } });
    const created = await t.app.offers.games.createGame({ gameId: "game-b", name: "Game B", clientId: "client-b", apiKey: "api-key-of-game-b-0123456789" });
    gameB = { gameId: "game-b", clientId: created.clientId, apiKey: created.apiKey };
  }, 60_000);
  afterAll(async () => t?.close());

  const campaigns = async (playerId: string, options: { gameId?: string; apiKey?: string } = {}) =>
    t.inject({ method: "POST", url: "/v1/client/player/campaigns", headers: { "content-type": "application/json", "x-game-jwt": await t.jwt(playerId, options) }, payload: {} });
  const snapshot = (game: TestGame, playerId = "p1") =>
    t.inject({ method: "POST", url: "/v1/player/snapshot", headers: { "content-type": "application/json", ...t.apiHeaders(game) }, payload: { playerId, username: playerId } });

  it("answers 429 rate-limited with Retry-After and RateLimit-* once a player's client spends its budget", async () => {
    const remaining: string[] = [];
    for (let i = 0; i < CLIENT_LIMIT; i++) {
      const res = await campaigns("burst-player");
      expect(res.statusCode).toBe(200);
      expect(res.headers["ratelimit-limit"]).toBe(String(CLIENT_LIMIT));
      remaining.push(String(res.headers["ratelimit-remaining"]));
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const refused = await campaigns("burst-player");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: "rate-limited" });
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers["ratelimit-limit"]).toBe(String(CLIENT_LIMIT));
    expect(refused.headers["ratelimit-remaining"]).toBe("0");
    expect(Number(refused.headers["ratelimit-reset"])).toBe(retryAfter);
    // Every limited route of the player spends the same budget.
    const referrals = await t.inject({ method: "POST", url: "/v1/client/player/referrals", headers: { "content-type": "application/json", "x-game-jwt": await t.jwt("burst-player") }, payload: {} });
    expect(referrals.statusCode).toBe(429);
  });

  it("gives every player, every game and each environment of a game a client budget of its own", async () => {
    for (let i = 0; i < CLIENT_LIMIT + 1; i++) await campaigns("shared-name");
    expect((await campaigns("shared-name")).statusCode).toBe(429);
    expect((await campaigns("another-player")).statusCode).toBe(200);
    // The same player id in game-a's test environment, and in game-b.
    expect((await campaigns("shared-name", { apiKey: t.testGame.apiKey })).statusCode).toBe(200);
    expect((await campaigns("shared-name", { gameId: gameB.gameId, apiKey: gameB.apiKey })).statusCode).toBe(200);
  });

  it("gives each game environment's servers one budget, apart from other games and the other environment", async () => {
    for (let i = 0; i < SERVER_LIMIT; i++) expect((await snapshot(t.game, `s${i}`)).statusCode).toBe(200);
    const refused = await snapshot(t.game, "s9");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: "rate-limited" });
    expect(refused.headers["retry-after"]).toBeDefined();
    expect((await snapshot(t.testGame)).statusCode).toBe(200);
    expect((await snapshot(gameB)).statusCode).toBe(200);
  });

  it("spends nothing on a refused credential", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await t.inject({ method: "POST", url: "/v1/player/snapshot", headers: { "content-type": "application/json", "x-client-id": gameB.clientId, "x-api-key": "wrong-key-0123456789" }, payload: { playerId: "x" } });
      expect(res.statusCode).toBe(401);
    }
    const first = await snapshot(gameB, "after-refusals");
    expect(first.statusCode).toBe(200);
    // game-b's servers spent one request in the previous test and one now.
    expect(first.headers["ratelimit-remaining"]).toBe("0");
  });

  it("applies a game environment's own budget set through the admin API at once; null goes back to the default", async () => {
    const url = `/v1/admin/games/${t.game.gameId}/rate-limits`;
    const before = await t.inject({ method: "GET", url, headers: ADMIN });
    expect(before.json()).toEqual({
      clientPerMinute: CLIENT_LIMIT,
      serverPerMinute: SERVER_LIMIT,
      own: { clientPerMinute: null, serverPerMinute: null },
      defaults: { clientPerMinute: CLIENT_LIMIT, serverPerMinute: SERVER_LIMIT },
    });
    expect((await snapshot(t.game)).statusCode).toBe(429);
    const raised = await t.inject({ method: "PUT", url, headers: ADMIN, payload: { serverPerMinute: 100 } });
    expect(raised.statusCode).toBe(200);
    expect(raised.json()).toMatchObject({ serverPerMinute: 100, own: { serverPerMinute: 100, clientPerMinute: null } });
    const after = await snapshot(t.game);
    expect(after.statusCode).toBe(200);
    expect(after.headers["ratelimit-limit"]).toBe("100");
    // 0 = unlimited: no budget headers at all.
    for (let i = 0; i < CLIENT_LIMIT + 1; i++) await campaigns("unlimited-player");
    expect((await campaigns("unlimited-player")).statusCode).toBe(429);
    await t.inject({ method: "PUT", url, headers: ADMIN, payload: { clientPerMinute: 0 } });
    const unlimited = await campaigns("unlimited-player");
    expect(unlimited.statusCode).toBe(200);
    expect(unlimited.headers["ratelimit-limit"]).toBeUndefined();
    // The test environment kept the defaults.
    const testEnv = await t.inject({ method: "GET", url, headers: { ...ADMIN, "x-offers-environment": "test" } });
    expect(testEnv.json()).toMatchObject({ clientPerMinute: CLIENT_LIMIT, own: { clientPerMinute: null } });
    const reset = await t.inject({ method: "PUT", url, headers: ADMIN, payload: { clientPerMinute: null, serverPerMinute: null } });
    expect(reset.json()).toMatchObject({ clientPerMinute: CLIENT_LIMIT, serverPerMinute: SERVER_LIMIT, own: { clientPerMinute: null, serverPerMinute: null } });
  });

  it("refuses bad budgets and unknown games with a clear error", async () => {
    const url = `/v1/admin/games/${t.game.gameId}/rate-limits`;
    for (const payload of [{}, { clientPerMinute: -1 }, { serverPerMinute: 1.5 }, { clientPerMinute: "10" }, { serverPerMinute: 10_000_001 }]) {
      const res = await t.inject({ method: "PUT", url, headers: ADMIN, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe("invalid-request");
    }
    const unknown = await t.inject({ method: "GET", url: "/v1/admin/games/no-such-game/rate-limits", headers: ADMIN });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: "game-not-found" });
    expect((await t.inject({ method: "GET", url })).statusCode).toBe(401);
  });

  it("does not limit the admin API, the probes or the OpenAPI document", async () => {
    for (const url of ["/health", "/ready", "/v1/openapi.json", "/v1/admin/games/game-a/definitions"]) {
      for (let i = 0; i < Math.max(CLIENT_LIMIT, SERVER_LIMIT) + 2; i++) {
        const res = await t.inject({ method: "GET", url, headers: ADMIN });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers["ratelimit-limit"], url).toBeUndefined();
      }
    }
  });

  it("limits redeeming one-time tokens per client address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < CLIENT_LIMIT + 1; i++) {
      const res = await t.inject({ method: "POST", url: "/v1/auth/one_time_token/redeem", headers: { "content-type": "application/json" }, payload: { token: `no-such-token-${i}`, gameId: "game-a" }, remoteAddress: "198.51.100.7" });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, CLIENT_LIMIT).every((s) => s !== 429)).toBe(true);
    expect(statuses[CLIENT_LIMIT]).toBe(429);
    const elsewhere = await t.inject({ method: "POST", url: "/v1/auth/one_time_token/redeem", headers: { "content-type": "application/json" }, payload: { token: "no-such-token", gameId: "game-a" }, remoteAddress: "198.51.100.8" });
    expect(elsewhere.statusCode).not.toBe(429);
  });

  it("counts a redeem the portal relays at the player's address, believes that address from the portal only, and never spends a token it refuses", async () => {
    const PORTAL = "198.51.100.20";
    const redeem = (token: string, headers: Record<string, string>, remoteAddress = PORTAL) =>
      t.inject({ method: "POST", url: "/v1/auth/one_time_token/redeem", headers: { "content-type": "application/json", ...headers }, payload: { token, gameId: "game-a" }, remoteAddress });
    const relayed = (address: string) => ({ ...ADMIN, "x-offers-client-address": address });

    // One player's address spends its budget through the portal…
    for (let i = 0; i < CLIENT_LIMIT; i++) expect((await redeem(`made-up-${i}`, relayed("203.0.113.50"))).statusCode).toBe(401);
    const good = await t.app.offers.tokens.generate("game-a", "relayed-player");
    const refused = await redeem(good, relayed("203.0.113.50"));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // …while another player's redeem through the same portal goes through, and the refused token was not spent.
    const redeemed = await redeem(good, relayed("203.0.113.51"));
    expect(redeemed.statusCode).toBe(200);
    expect(redeemed.json()).toMatchObject({ playerId: "relayed-player", gameId: "game-a" });

    // The same header from anyone without the portal's token is ignored: the peer's own address counts.
    for (let i = 0; i < CLIENT_LIMIT; i++) expect((await redeem(`forged-${i}`, { "x-offers-client-address": `203.0.113.${60 + i}` }, "198.51.100.30")).statusCode).toBe(401);
    expect((await redeem("forged-last", { "x-offers-client-address": "203.0.113.99" }, "198.51.100.30")).statusCode).toBe(429);

    // A wrong portal token is refused, not counted at the player's address; a malformed address is a bad request.
    const wrong = await redeem("made-up", { authorization: "Bearer not-the-admin-token-0123", "x-offers-client-address": "203.0.113.70" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: "invalid-admin-token" });
    // A credential alone (a game client's JWT, say) relays nothing and is not refused for it.
    expect((await redeem("made-up", { authorization: "Bearer some-game-jwt" }, "198.51.100.40")).json()).toEqual({ message: "token-invalid" });
    const malformed = await redeem("made-up", relayed("not-an-address"));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ message: "invalid-request", issues: [{ path: ["x-offers-client-address"] }] });
  });
});

describe("rate limits of the event stream", () => {
  it("counts a player's connects on the client budget", { timeout: 60_000 }, async () => {
    const stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 30_000, staleTimeoutMs: 120_000 });
    const t = await startOffersTestApp("pglite", { rateLimit: { clientPerMinute: 2, serverPerMinute: 0 }, eventStream: stream });
    try {
      // A displaced client's reconnect is answered at once (409), after the budget is spent.
      const connect = async () =>
        (await t.inject({ method: "GET", url: "/v1/sse/connect", headers: { authorization: `Bearer ${await t.jwt("streamer")}`, "last-event-id": "replaced" } })).statusCode;
      expect([await connect(), await connect(), await connect()]).toEqual([409, 409, 429]);
    } finally {
      await stream.close();
      await t.close();
    }
  });
});

describe("rate limits in the OpenAPI document", () => {
  it("documents 429 with Retry-After and RateLimit-* on every game-client, game-server and public route, and not on the admin API", async () => {
    const document = await buildOffersOpenApiDocument();
    const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item ?? {}).map(([method, op]) => ({ path, method, op: op as { tags?: string[]; responses?: Record<string, { headers?: Record<string, unknown> }> } })),
    );
    expect(operations.length).toBeGreaterThan(10);
    for (const { path, method, op } of operations) {
      const limited = !op.tags?.includes("admin");
      expect(op.responses?.["429"] !== undefined, `${method} ${path}`).toBe(limited);
      if (limited) expect(Object.keys(op.responses!["429"].headers ?? {}).sort(), `${method} ${path}`).toEqual(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"]);
    }
  });
});

describe("rate limits without their Redis", () => {
  it("lets requests through when the counters' Redis is unreachable", { timeout: 60_000 }, async () => {
    const port = await freePort();
    const redis = new Redis(`redis://127.0.0.1:${port}`, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 250, retryStrategy: () => 1_000 });
    redis.on("error", () => {});
    const t = await startOffersTestApp("pglite", { rateLimit: { clientPerMinute: 1, serverPerMinute: 1, redis } });
    try {
      for (let i = 0; i < 4; i++) {
        const res = await t.inject({ method: "POST", url: "/v1/player/snapshot", headers: { "content-type": "application/json", ...t.apiHeaders() }, payload: { playerId: "p1" } });
        expect(res.statusCode).toBe(200);
      }
    } finally {
      await t.close();
      redis.disconnect();
    }
  });
});

describe("npm run offers -- rate-limits:…", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("shows and sets a game environment's budgets, and the service applies them", { timeout: 120_000 }, async () => {
    const s = offersStorage("pglite");
    cleanups.push(() => s.cleanup());
    const env = await s.env({ OFFERS_SECRET_KEY: "d".repeat(64), OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE: "50", OFFERS_RATE_LIMIT_SERVER_PER_MINUTE: "0" });
    expect((await runCli(env, "games:create", "limited-game", "Limited")).code).toBe(0);
    const shown = await runCli(env, "rate-limits:show", "limited-game");
    expect(shown.out).toContain("limited-game (live): client=50/min (service default) per player, server=unlimited (service default)");
    const set = await runCli(env, "rate-limits:set", "limited-game", "--client-per-minute", "7", "--server-per-minute", "1000", "--environment", "test");
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain("limited-game (test): client=7/min (the game's own) per player, server=1000/min (the game's own)");
    expect((await runCli(env, "rate-limits:show", "limited-game")).out).toContain("client=50/min (service default)");
    const back = await runCli(env, "rate-limits:set", "limited-game", "--client-per-minute", "default", "--environment", "test");
    expect(back.out).toContain("client=50/min (service default) per player, server=1000/min (the game's own)");
    for (const bad of [["rate-limits:set", "limited-game"], ["rate-limits:set", "limited-game", "--client-per-minute", "lots"], ["rate-limits:show", "limited-game", "--environment", "staging"]]) {
      expect((await runCli(env, ...bad)).code, bad.join(" ")).toBe(1);
    }
    const unknown = await runCli(env, "rate-limits:show", "no-such-game");
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("game-not-found");
    // The service reads what the CLI stored.
    expect((await runCli(env, "rate-limits:set", "limited-game", "--server-per-minute", "1")).code).toBe(0);
    const database = await s.open();
    try {
      const app = await buildOffersApp({ database, secretKey: "d".repeat(64), adminToken: "admin-token-0123456789", rateLimit: { clientPerMinute: 50, serverPerMinute: 0 } });
      const res = await app.inject({ method: "GET", url: "/v1/admin/games/limited-game/rate-limits", headers: { authorization: "Bearer admin-token-0123456789" } });
      expect(res.json()).toMatchObject({ serverPerMinute: 1, clientPerMinute: 50 });
      await app.close();
    } finally {
      await database.close();
    }
  });
});

describe.skipIf(!redisUrl)("two instances sharing Redis", () => {
  it("spend one budget: a burst split across both is allowed the limit, not twice it", { timeout: 60_000 }, async () => {
    const keyPrefix = `offers-rate-limit-test-${randomBytes(6).toString("hex")}:`;
    const clients = [new Redis(redisUrl!), new Redis(redisUrl!)];
    const limit = 10;
    const first = await startOffersTestApp("pglite", { rateLimit: { clientPerMinute: limit, serverPerMinute: limit, redis: clients[0], keyPrefix } });
    const second = await buildOffersApp({ database: first.database, secretKey: first.secretKey, adminToken: "test-admin-token-0123456789", clock: first.clock, rateLimit: { clientPerMinute: limit, serverPerMinute: limit, redis: clients[1], keyPrefix } });
    try {
      const apps = [first.app, second];
      const jwt = await first.jwt("shared-player");
      const burst = (kind: "client" | "server") =>
        Promise.all(
          Array.from({ length: 3 * limit }, (_, i) =>
            apps[i % 2].inject(
              kind === "client"
                ? { method: "POST", url: "/v1/client/player/campaigns", headers: { "content-type": "application/json", "x-game-jwt": jwt }, payload: {} }
                : { method: "POST", url: "/v1/player/snapshot", headers: { "content-type": "application/json", ...first.apiHeaders() }, payload: { playerId: `p${i}` } },
            ),
          ),
        );
      for (const kind of ["client", "server"] as const) {
        const statuses = (await burst(kind)).map((res) => res.statusCode);
        expect(statuses.filter((s) => s === 200).length, kind).toBe(limit);
        expect(statuses.filter((s) => s === 429).length, kind).toBe(2 * limit);
      }
    } finally {
      await second.close();
      await first.close();
      for (const client of clients) {
        const keys = await client.keys(`${keyPrefix}*`);
        if (keys.length > 0) await client.del(...keys);
        client.disconnect();
      }
    }
  });
});

if (!redisUrl) console.log("two instances sharing Redis: skipped (set TEST_REDIS_URL to run it)");
