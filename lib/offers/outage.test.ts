/**
 * PostgreSQL going away: requests (claims too) answer 503 {"message":"database-unavailable"}, /health
 * answers 503 with a clear body, and the service recovers by itself when the database returns.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { createScratchPostgres } from "../db/testing";
import { startProxyFor } from "../testing/tcp-proxy";
import { buildOffersApp } from "./app";
import { ManualClock } from "./clock";
import { openOffersDatabase } from "./db";
import { claimableGift } from "./testing";

/**
 * The service on a scratch database reached through a TCP proxy (cut and restored by the tests), with
 * a game and its API headers; all removed when the test ends.
 */
async function startBehindProxy() {
  const scratch = await createScratchPostgres();
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
