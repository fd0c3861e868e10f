/**
 * Exactly-once under concurrency: 50 simultaneous claims of one instance give one 200, 49 × 409 and
 * one ledger row; 20 simultaneous redeems of one token give one success. On PostgreSQL these run on
 * a pool of real connections; on PGlite they interleave on its single connection.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractDatabaseTargets } from "@/test-support/db/test-databases";
import { rewardLedger } from "./db/schema";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";

describe.each(contractDatabaseTargets())("concurrency on %s", (target) => {
  let t: OffersTestContext;
  beforeAll(async () => {
    t = await startOffersTestApp(target);
    const res = await t.inject({
      method: "PUT",
      url: "/v1/offers/definitions/race",
      headers: t.apiHeaders(),
      payload: { name: "Race", rewards: [{ kind: "coins", rewardId: "c", name: "Coins", amount: 1 }], durationSeconds: 3600 },
    });
    expect(res.statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  it("50 concurrent claims of one instance: one 200, 49 × 409, one ledger row", async () => {
    const playerId = "racer";
    const assigned = await t.post("/v1/player/offers/assign", { playerId, offerId: "race" }, t.apiHeaders());
    const instanceId = assigned.body.instanceId as string;
    await t.post("/v1/client/player/campaigns", { viewingCampaigns: true }, { "x-game-jwt": await t.jwt(playerId) });
    const jwt = await t.jwt(playerId);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0
          ? t.post("/v1/client/reward/claim", { kind: "offer", instanceId }, { "x-game-jwt": jwt })
          : t.post("/v1/reward/sdk/claim", { kind: "offer", instanceId, playerId }, t.apiHeaders()),
      ),
    );
    const codes = results.map((r) => r.status);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body).toEqual({ message: "offer-not-claimable" });
    const ledger = await t.database.db.select().from(rewardLedger).where(eq(rewardLedger.sourceId, instanceId));
    expect(ledger).toHaveLength(1);
  });

  it("50 concurrent claims straight on the engine (no HTTP): one grant", async () => {
    const playerId = "engine-racer";
    const engine = t.app.offers.engine;
    const offer = await engine.assignOffer("game-a", playerId, "race");
    await engine.fetchCampaigns("game-a", playerId, { viewing: true, includeQueued: false });
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => engine.claim({ gameId: "game-a", playerId, kind: "offer", instanceId: offer.instanceId })));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    for (const o of outcomes) if (o.status === "rejected") expect((o.reason as { code: string }).code).toBe("offer-not-claimable");
    expect(await t.database.db.select().from(rewardLedger).where(eq(rewardLedger.sourceId, offer.instanceId))).toHaveLength(1);
  });

  it("20 concurrent redeems of one token: one success", async () => {
    const generated = await t.post("/v1/auth/one_time_token/generate", {}, { "x-game-jwt": await t.jwt("redeemer") });
    const token = generated.body.token as string;
    const results = await Promise.all(Array.from({ length: 20 }, () => t.post("/v1/auth/one_time_token/redeem", { token, gameId: "game-a" })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0].body.playerId).toBe("redeemer");
    expect(results.filter((r) => r.status === 410 && r.body.message === "token-used")).toHaveLength(19);
  });

  it("concurrent assignments never over-fill the slots", async () => {
    const defs = Array.from({ length: 8 }, (_, i) => `slot-${i}`);
    for (const offerId of defs) {
      await t.inject({ method: "PUT", url: `/v1/offers/definitions/${offerId}`, headers: t.apiHeaders(), payload: { name: offerId, rewards: [{ kind: "coins", rewardId: "c", name: "C", amount: 1 }], durationSeconds: 3600 } });
    }
    const results = await Promise.all(defs.map((offerId) => t.post("/v1/player/offers/assign", { playerId: "crowded", offerId }, t.apiHeaders())));
    const byStatus = results.map((r) => r.body.status);
    expect(byStatus.filter((s) => s === "surfaced")).toHaveLength(3);
    expect(byStatus.filter((s) => s === "inQueue")).toHaveLength(5);
  });
});
