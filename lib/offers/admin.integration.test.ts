/**
 * A support person's read of a player (GET /v1/admin/games/:gameId/players/:playerId) changes
 * nothing: no offer surfaces, expires or is viewed, no stock is spent, no event is published,
 * even when a targeted definition would match the player at their next fetch.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryEventBus } from "../events";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import type { OfferEvent } from "./engine";
import { createEventStream } from "./sse";
import { startOffersTestApp, storedStateDigest, type OffersTestContext } from "@/test-support/offers/test-app";

const ADMIN = { authorization: "Bearer test-admin-token-0123456789" };
const reward = { kind: "coins", rewardId: "gold", name: "Gold", amount: 50 };

describe.each(testDatabaseTargets())("the admin read of a player on %s", (target) => {
  let t: OffersTestContext;
  const published: OfferEvent[] = [];

  beforeAll(async () => {
    const stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 60_000, staleTimeoutMs: 60_000 });
    t = await startOffersTestApp(target, { eventStream: stream });
    t.app.offers.engine.onOfferEvent((event) => published.push(event));
  });
  afterAll(async () => t?.close());

  const put = async (offerId: string, body: object) => {
    const res = await t.inject({ method: "PUT", url: `/v1/offers/definitions/${offerId}`, headers: t.apiHeaders(), payload: { name: offerId, rewards: [reward], ...body } });
    expect(res.statusCode).toBe(200);
  };

  it("changes nothing, although the player's next fetch would surface, expire and spend stock", async () => {
    const start = t.clock.now().getTime();
    await put("short", { durationSeconds: 60, realTime: true });
    expect((await t.post("/v1/player/snapshot", { playerId: "looked-at", loginStreak: 7 }, t.apiHeaders())).status).toBe(200);
    expect((await t.post("/v1/player/offers/assign", { playerId: "looked-at", offerId: "short" }, t.apiHeaders())).status).toBe(200);
    // After the push: a targeted real-time definition with a stock of one the player matches, and
    // the assigned offer past its deadline. Neither has been applied: the player has not read since.
    await put("streak-gift", { durationSeconds: 3_600, realTime: true, audience: { field: "loginStreak", op: "gte", value: 3 }, limits: { maxClaimsTotal: 1 } });
    t.clock.set(start + 120_000);
    t.app.offers.engine.invalidateTargeting(t.game.gameId);

    const before = await storedStateDigest(t.database.db);
    published.length = 0;
    const read = async () => t.inject({ method: "GET", url: `/v1/admin/games/${t.game.gameId}/players/looked-at`, headers: ADMIN });
    const first = await read();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ playerId: "looked-at", connected: false, snapshot: { loginStreak: 7 } });
    expect(first.json().offers.map((o: { offerId: string; status: string }) => [o.offerId, o.status])).toEqual([["short", "surfaced"]]);
    expect((await read()).json()).toEqual(first.json());
    expect(await storedStateDigest(t.database.db)).toBe(before);
    expect(published).toEqual([]);
    const funnel = await t.inject({ method: "GET", url: `/v1/admin/games/${t.game.gameId}/definitions/streak-gift/funnel`, headers: ADMIN });
    expect(funnel.json().total).toMatchObject({ assigned: 0, surfaced: 0 });

    // The player's own fetch is what applies them.
    const refresh = await t.post("/v1/player/campaigns/refresh", { playerId: "looked-at" }, t.apiHeaders());
    expect(refresh.body.offers.map((o: { offerId: string; status: string }) => [o.offerId, o.status])).toEqual([
      ["short", "expired"],
      ["streak-gift", "surfaced"],
    ]);
    expect(await storedStateDigest(t.database.db)).not.toBe(before);
    expect(published.map((e) => e.type)).toEqual(["expired", "surfaced"]);
  });
});
