/**
 * PostgreSQL going away: requests (claims too) answer 503 {"message":"database-unavailable"}, /health
 * answers 503 with a clear body, and the service recovers by itself when the database returns. And a
 * claim that PostgreSQL runs only after its caller stopped waiting grants nothing and answers 503.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { openDatabase } from "../db";
import { createScratchPostgres } from "@/test-support/db/test-databases";
import { startProxyFor } from "@/test-support/tcp-proxy";
import { buildOffersApp } from "./app";
import { ManualClock } from "./clock";
import { offersMigrations, openOffersDatabase, schema } from "./db";
import { claimableGift } from "@/test-support/offers/test-app";

/**
 * The service on a scratch database reached through a TCP proxy (cut and restored by the tests), with
 * a game and its API headers; all removed when the test ends.
 */
async function startBehindProxy() {
  const scratch = await createScratchPostgres({ template: offersMigrations });
  const { proxy, url: viaProxy } = await startProxyFor(scratch.url, 5432);
  const database = await openOffersDatabase({ url: viaProxy, poolSize: 4, onPoolError: () => {} });
  const app = await buildOffersApp({ database, secretKey: "a".repeat(64), adminToken: "admin-token-0123456789", clock: new ManualClock(), checkResponses: true });
  onTestFinished(async () => {
    await app.close();
    await database.close().catch(() => {});
    await proxy.close();
    await scratch.drop();
  });
  const game = await app.offers.games.createGame({ gameId: "g", name: "G", clientId: "c", apiKey: "key-0123456789-abcdef" });
  const headers = { "x-client-id": game.clientId, "x-api-key": game.apiKey, "content-type": "application/json" };
  return { proxy, app, headers };
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("offers service when PostgreSQL goes away", () => {
  it("answers 503, then recovers by itself", async () => {
    const { proxy, app, headers } = await startBehindProxy();
    const refresh = () => app.inject({ method: "POST", url: "/v1/player/campaigns/refresh", headers, payload: { playerId: "p" } });
    expect((await refresh()).statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);

    await proxy.cut();
    const down = await refresh();
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ message: "database-unavailable" });
    const health = await app.inject({ method: "GET", url: "/health" });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({ status: "unavailable", database: "unavailable", message: "database-unavailable" });
    app.offers.games.invalidate(); // no cached credentials: authentication itself needs the database
    const downAuth = await refresh();
    expect(downAuth.statusCode).toBe(503);

    await proxy.restore();
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      status = (await refresh()).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
    expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
  });

  it("refuses a claim with 503 while away, changing nothing, and grants it exactly once after recovery", async () => {
    const { proxy, app, headers } = await startBehindProxy();
    const { coins, offerState, claim } = await claimableGift(app, headers, "g", "p");
    expect(await offerState()).toEqual({ status: "claimable", grants: 0 });

    // A game server just served (credentials and game settings cached): the claim itself meets the outage.
    expect((await app.inject({ method: "POST", url: "/v1/player/campaigns/refresh", headers, payload: { playerId: "p" } })).statusCode).toBe(200);
    await proxy.cut();
    const refused = await claim();
    expect(refused).toMatchObject({ status: 503, body: { message: "database-unavailable" } });
    expect(refused.retryAfter).toBeDefined();

    await proxy.restore();
    let health = 0;
    for (let attempt = 0; attempt < 50 && health !== 200; attempt++) {
      health = (await app.inject({ method: "GET", url: "/health" })).statusCode;
      if (health !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(health).toBe(200);
    // The refused claim did not happen: still claimable, nothing granted.
    expect(await offerState()).toEqual({ status: "claimable", grants: 0 });
    expect(await claim()).toEqual({ status: 200, body: { message: "Rewards claimed", rewards: [coins] }, retryAfter: undefined });
    expect(await claim()).toMatchObject({ status: 409, body: { message: "offer-not-claimable" } });
    expect(await offerState()).toEqual({ status: "claimed", grants: 1 });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("a claim that reaches PostgreSQL after its caller's wait", () => {
  // The database timeout: the caller waits up to this for a pooled connection, then this plus 1 s for
  // the answer; the claim's deadline is this plus 1 s from when it is asked.
  const timeoutMs = 3_000;

  it("answers 503 database-unavailable and leaves the offer claimable, not 409", async () => {
    const scratch = await createScratchPostgres({ template: offersMigrations });
    const database = await openDatabase({ url: scratch.url, schema, ...offersMigrations, poolSize: 1, timeoutMs, onPoolError: () => {} });
    const app = await buildOffersApp({ database, secretKey: "a".repeat(64), adminToken: "admin-token-0123456789", clock: new ManualClock(), checkResponses: true });
    const locker = new pg.Client({ connectionString: scratch.url });
    onTestFinished(async () => {
      await locker.end().catch(() => {});
      await app.close();
      await database.close().catch(() => {});
      await scratch.drop();
    });
    const game = await app.offers.games.createGame({ gameId: "g", name: "G", clientId: "c", apiKey: "key-0123456789-abcdef" });
    const headers = { "x-client-id": game.clientId, "x-api-key": game.apiKey, "content-type": "application/json" };
    const { coins, offerState, claim } = await claimableGift(app, headers, "g", "p");
    // Credentials and game settings cached: the claim's statement is its only use of the pool.
    expect((await app.inject({ method: "POST", url: "/v1/player/campaigns/refresh", headers, payload: { playerId: "p" } })).statusCode).toBe(200);

    // The pool's one connection is busy for 2.5 s, and then the player's row stays locked until 4.7 s:
    // the claim asked at 0.2 s (deadline 4.2 s) gets a connection at 2.5 s and its lock at 4.7 s, within
    // its statement timeout (3 s) and its read timeout (4 s), but after its deadline.
    await locker.connect();
    await locker.query("begin");
    await locker.query("select 1 from offers_players where game_id = 'g' and player_id = 'p' for update");
    // (A drizzle query runs once it is awaited or then'd.)
    const busy = database.db.execute(sql`select pg_sleep(2.5)`).then(() => {});
    const unlock = new Promise((resolve) => setTimeout(resolve, 4_700)).then(() => locker.query("commit"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const late = await claim();
    await Promise.all([busy, unlock]);

    expect(late).toMatchObject({ status: 503, body: { message: "database-unavailable" } });
    expect(await offerState()).toEqual({ status: "claimable", grants: 0 });
    expect(await claim()).toEqual({ status: 200, body: { message: "Rewards claimed", rewards: [coins] }, retryAfter: undefined });
    expect(await offerState()).toEqual({ status: "claimed", grants: 1 });
  });
});
