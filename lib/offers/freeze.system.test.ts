/**
 * PostgreSQL frozen (every process stopped by SIGSTOP, as a hung host): the offers service answers
 * /health, campaign fetches, claims and the support admin routes with 503 database-unavailable within its database timeout (plus
 * slack), instead of waiting for the TCP stack, and recovers by itself once PostgreSQL runs again.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { SignJWT } from "jose";
import pg from "pg";
import { openDatabase } from "../db";
import { canRunThrowawayPostgres, startThrowawayPostgres, type ThrowawayServer } from "@/test-support/throwaway";
import { buildOffersApp } from "./app";
import { ManualClock } from "./clock";
import { OFFERS_MIGRATIONS_TABLE, offersMigrationsDir, schema } from "./db";
import { claimableGift } from "@/test-support/offers/test-app";

const timeoutMs = 1_000;
// The client waits 1 s longer than the server's statement_timeout; the rest is slack for a busy machine.
const boundMs = timeoutMs + 1_000 + 3_000;
const ADMIN_TOKEN = "admin-token-0123456789";
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** The PostgreSQL of this file's tests (one server; each test has a database of its own on it). */
let server: ThrowawayServer;
let databases = 0;

/**
 * The service on a fresh database of the throwaway PostgreSQL, and a game with player-1's JWT; closed
 * (and the server thawed) when the test ends.
 */
async function startService() {
  const closers: Array<() => Promise<unknown>> = [];
  onTestFinished(async () => {
    server.thaw();
    for (const close of closers.reverse()) await close();
  });
  const name = `freeze_${++databases}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`create database "${name}"`).finally(() => admin.end());
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  const database = await openDatabase({
    url: url.toString(),
    schema,
    migrationsDir: offersMigrationsDir(),
    migrationsTable: OFFERS_MIGRATIONS_TABLE,
    poolSize: 4,
    timeoutMs,
    onPoolError: () => {},
  });
  // A close that waits for a connection PostgreSQL never answered must not hold up the next test.
  closers.push(() => Promise.race([database.close().catch(() => {}), new Promise((r) => setTimeout(r, 5_000))]));
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  const app = await buildOffersApp({ database, secretKey: "a".repeat(64), adminToken: ADMIN_TOKEN, clock, checkResponses: true });
  closers.push(() => app.close());
  const game = await app.offers.games.createGame({ gameId: "g", name: "G", clientId: "c", apiKey: "key-0123456789-abcdef" });
  const iat = Math.floor(clock.now().getTime() / 1000);
  const jwt = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(game.gameId)
    .setSubject("player-1")
    .setIssuedAt(iat)
    .setExpirationTime(iat + 900)
    .sign(new TextEncoder().encode(game.apiKey));
  const api = { "x-client-id": game.clientId, "x-api-key": game.apiKey, "content-type": "application/json" };
  return { server, app, game, jwt, api };
}

/** /health's status once it answers 200, or after 5 s of asking. */
async function healthAfterThaw(app: Awaited<ReturnType<typeof startService>>["app"]): Promise<number> {
  let health = 0;
  for (let attempt = 0; attempt < 50 && health !== 200; attempt++) {
    health = (await app.inject({ method: "GET", url: "/health" })).statusCode;
    if (health !== 200) await new Promise((r) => setTimeout(r, 100));
  }
  return health;
}

describe.skipIf(!canRunThrowawayPostgres())("offers service when PostgreSQL freezes", () => {
  beforeAll(async () => {
    server = await startThrowawayPostgres();
  }, 60_000);
  afterAll(async () => {
    server?.thaw();
    await server?.destroy();
  });

  it("answers 503 database-unavailable within the bound (game and support admin routes), then recovers on thaw without a restart", async () => {
    const { server, app, jwt, api } = await startService();
    const requests = {
      health: () => app.inject({ method: "GET", url: "/health" }),
      campaigns: () => app.inject({ method: "POST", url: "/v1/client/player/campaigns", headers: { "x-game-jwt": jwt, "content-type": "application/json" }, payload: {} }),
      refresh: () => app.inject({ method: "POST", url: "/v1/player/campaigns/refresh", headers: api, payload: { playerId: "player-1" } }),
      // The support side of the admin API (what the portal's support pages call).
      timeline: () => app.inject({ method: "GET", url: "/v1/admin/games/g/players/player-1/timeline?limit=5", headers: admin }),
      thresholds: () => app.inject({ method: "GET", url: "/v1/admin/games/g/support-thresholds", headers: admin }),
      setThresholds: () => app.inject({ method: "PUT", url: "/v1/admin/games/g/support-thresholds", headers: { ...admin, "content-type": "application/json" }, payload: { rules: [{ kind: "coins", approvalAbove: 1000 }] } }),
      bulkJobs: () => app.inject({ method: "GET", url: "/v1/admin/games/g/bulk-compensations", headers: admin }),
    };
    // player-1 becomes a player of the game (the timeline is of a known player).
    expect((await app.inject({ method: "POST", url: "/v1/player/snapshot", headers: api, payload: { playerId: "player-1" } })).statusCode).toBe(200);
    for (const [name, send] of Object.entries(requests)) expect((await send()).statusCode, name).toBe(200);

    server.freeze();
    const answers = await Promise.all(
      Object.entries(requests).map(async ([name, send]) => {
        const started = Date.now();
        const response = await send();
        return { name, status: response.statusCode, body: response.json(), retryAfter: response.headers["retry-after"], elapsed: Date.now() - started };
      }),
    );
    for (const answer of answers) {
      expect(answer.status, answer.name).toBe(503);
      expect(answer.body, answer.name).toMatchObject({ message: "database-unavailable" });
      expect(answer.elapsed, answer.name).toBeLessThan(boundMs);
    }
    expect(answers.find((a) => a.name === "campaigns")?.retryAfter).toBeDefined();

    server.thaw();
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      status = (await requests.campaigns()).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    for (const send of Object.values(requests)) expect((await send()).statusCode).toBe(200);
  }, 60_000);

  it("refuses a claim with 503 database-unavailable within the bound, changing nothing, and grants it exactly once after thaw", async () => {
    const { server, app, api } = await startService();
    const { coins, offerState, claim } = await claimableGift(app, api, "g", "player-1");
    expect(await offerState()).toEqual({ status: "claimable", grants: 0 });

    // A game server just served: its credentials and the game's settings are cached, so the claim's
    // own statement is what meets the frozen database.
    expect((await app.inject({ method: "POST", url: "/v1/player/campaigns/refresh", headers: api, payload: { playerId: "player-1" } })).statusCode).toBe(200);
    server.freeze();
    const started = Date.now();
    const refused = await claim();
    const elapsed = Date.now() - started;
    expect(refused).toMatchObject({ status: 503, body: { message: "database-unavailable" } });
    expect(refused.retryAfter).toBeDefined();
    expect(elapsed).toBeLessThan(boundMs);

    server.thaw();
    expect(await healthAfterThaw(app)).toBe(200);
    // The refused claim did not happen behind the caller's back: still claimable, nothing granted.
    expect(await offerState()).toEqual({ status: "claimable", grants: 0 });
    expect(await claim()).toEqual({ status: 200, body: { message: "Rewards claimed", rewards: [coins] }, retryAfter: undefined });
    expect(await claim()).toMatchObject({ status: 409, body: { message: "offer-not-claimable" } });
    expect(await offerState()).toEqual({ status: "claimed", grants: 1 });
  }, 60_000);
  it("refuses a one-time token redeem with 503 within the bound without spending the token, which redeems once after thaw", async () => {
    const { server, app, jwt } = await startService();
    const generated = await app.inject({ method: "POST", url: "/v1/auth/one_time_token/generate", headers: { "x-game-jwt": jwt, "content-type": "application/json" }, payload: {} });
    expect(generated.statusCode, generated.body).toBe(200);
    const { token } = generated.json() as { token: string };
    const redeem = async () => {
      const res = await app.inject({ method: "POST", url: "/v1/auth/one_time_token/redeem", headers: { "content-type": "application/json" }, payload: { token, gameId: "g" } });
      return { status: res.statusCode, body: res.json() };
    };

    server.freeze();
    const started = Date.now();
    const refused = await redeem();
    expect(refused).toMatchObject({ status: 503, body: { message: "database-unavailable" } });
    expect(Date.now() - started).toBeLessThan(boundMs);

    server.thaw();
    expect(await healthAfterThaw(app)).toBe(200);
    // The refused redeem did not spend the token behind the player's back: the retry gets in, once.
    expect(await redeem()).toMatchObject({ status: 200, body: { playerId: "player-1", gameId: "g" } });
    expect(await redeem()).toMatchObject({ body: { message: "token-used" } });
  }, 60_000);
});
