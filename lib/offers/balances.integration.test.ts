/**
 * What a player's balances mean (POST /v1/client/player/balances, ours): the game's last snapshot time,
 * and what the reward ledger granted after it, per reward id — kept until the game's next snapshot,
 * whatever the client remembers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";

describe.each(testDatabaseTargets())("a player's balances on %s", (target) => {
  let t: OffersTestContext;
  beforeAll(async () => {
    t = await startOffersTestApp(target);
  });
  afterAll(async () => t?.close());

  it("answers the snapshot's time and what was claimed since, until the next snapshot", async () => {
    const api = t.apiHeaders();
    const playerId = "balances-p1";
    const gold = { kind: "coins" as const, rewardId: "gold", name: "Gold", amount: 100 };
    const balances = async () => t.post("/v1/client/player/balances", {}, { "x-game-jwt": await t.jwt(playerId) });

    expect((await t.post("/v1/player/snapshot", { playerId, currencies: { gold: { balance: 1_000, in: 1_000, out: 0 } } }, api)).status).toBe(200);
    const snapshotAt = t.clock.now().toISOString();
    expect(await balances()).toEqual({ status: 200, body: { snapshotAt, claimedSinceSnapshot: {} } });

    t.clock.advance(5_000);
    expect((await t.inject({ method: "PUT", url: "/v1/offers/definitions/gold-gift", headers: api, payload: { name: "Gold gift", rewards: [gold], durationSeconds: 86_400 } })).statusCode).toBe(200);
    const { body: offer } = await t.post("/v1/player/offers/assign", { playerId, offerId: "gold-gift" }, api);
    await t.post("/v1/client/player/campaigns", { viewingCampaigns: true }, { "x-game-jwt": await t.jwt(playerId) });
    expect((await t.post("/v1/client/reward/claim", { kind: "offer", instanceId: offer.instanceId }, { "x-game-jwt": await t.jwt(playerId) })).status).toBe(200);
    // The claim is on its way: the snapshot still says 1,000, the ledger says 100 more since.
    expect(await balances()).toEqual({ status: 200, body: { snapshotAt, claimedSinceSnapshot: { gold: 100 } } });

    t.clock.advance(5_000);
    expect((await t.post("/v1/player/snapshot", { playerId, currencies: { gold: { balance: 1_100, in: 1_100, out: 0 } } }, api)).status).toBe(200);
    expect(await balances()).toEqual({ status: 200, body: { snapshotAt: t.clock.now().toISOString(), claimedSinceSnapshot: {} } });
  });
});
