/**
 * A player's timeline through the admin API on a real database: what happened to the player, newest
 * first — offer transitions with their causes, the reward of a claim, its webhook delivery with the
 * attempt, support grants granted at once, requested and approved — paged by a cursor without a gap or a
 * repeat, filtered by kind, per environment; bad input is a 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { eventually, startReceiver, type Receiver } from "@/test-support/offers/delivery";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";
import * as S from "./contract";
import { DeliveryWorker } from "./delivery/worker";

const ADMIN = "timeline-admin-token-0123456789";

describe.each(testDatabaseTargets())("player timeline on %s", (target) => {
  let t: OffersTestContext;
  let receiver: Receiver;
  let worker: DeliveryWorker;
  const admin = (method: "GET" | "POST" | "PUT", url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.inject({ method, url: `/v1/admin/games/game-a${url}`, headers: { authorization: `Bearer ${ADMIN}`, ...headers }, ...(payload === undefined ? {} : { payload }) });
  const page = async (playerId: string, query = "") => {
    const res = await admin("GET", `/players/${playerId}/timeline${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return S.TimelinePage.parse(res.json());
  };
  /** Every entry, page by page. */
  const all = async (playerId: string, limit: number, kinds?: string) => {
    const entries: S.TimelineEntry[] = [];
    let before: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const params = new URLSearchParams({ limit: String(limit), ...(kinds ? { kinds } : {}), ...(before ? { before } : {}) });
      const p = await page(playerId, `?${params}`);
      entries.push(...p.entries);
      expect(p.entries.length).toBeLessThanOrEqual(limit);
      if (!p.next) return entries;
      before = p.next;
    }
    throw new Error("more than 100 pages");
  };
  const key = (e: S.TimelineEntry) => `${e.kind}:${e.id}`;
  const playerId = "timeline-p1";

  beforeAll(async () => {
    t = await startOffersTestApp(target, { adminToken: ADMIN });
    const api = t.apiHeaders();
    expect((await t.inject({ method: "PUT", url: "/v1/currencies/gold", headers: api, payload: { name: "Gold", image: "https://img.example/gold.png" } })).statusCode).toBe(200);
    const sword = { kind: "item", rewardId: "sword", name: "Sword", amount: 1 };
    expect((await t.inject({ method: "PUT", url: "/v1/offers/definitions/armory", headers: api, payload: { name: "Armory", rewards: [sword], durationSeconds: 600, completionConditions: [{ kind: "spendCurrency", id: "gold", name: "Gold", amount: 10 }] } })).statusCode).toBe(200);
    expect((await admin("PUT", "/support-thresholds", { rules: [{ kind: "coins", approvalAbove: 1000 }] })).statusCode).toBe(200);
    receiver = await startReceiver();
    const endpoint = await t.post("/v1/webhooks/endpoints", { url: receiver.url }, api);
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(200);
    worker = new DeliveryWorker({ db: t.app.offers.engine.db, box: t.app.offers.box, addressPolicy: { allowPrivate: true }, timeoutMs: 5_000, pollMs: 20, concurrency: 4, perEndpoint: 2, retry: { delaysMs: [30], jitter: 0 } });
    worker.start();

    // The player's story: a snapshot, an offer assigned by the game server and claimed, a small grant at
    // once, a large one approved by a second person.
    expect((await t.post("/v1/player/snapshot", { playerId, username: "Tess" }, api)).status).toBe(200);
    const assigned = await t.post("/v1/player/offers/assign", { playerId, offerId: "armory" }, api);
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    // The next snapshot shows the gold spent: the offer becomes claimable.
    expect((await t.post("/v1/player/snapshot", { playerId, currencies: { gold: { balance: 0, in: 20, out: 20 } } }, api)).status).toBe(200);
    const claim = await t.post("/v1/reward/sdk/claim", { kind: "offer", instanceId: S.Offer.parse(assigned.body).instanceId, playerId }, api);
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);
    const reoffer = await admin("POST", `/players/${playerId}/offers`, { offerId: "armory", actor: "kim@support", reason: "Missed the event by a day" });
    expect(reoffer.statusCode, reoffer.body).toBe(200);
    const small = await admin("POST", `/players/${playerId}/support-grants`, { kind: "coins", rewardId: "gold", amount: 50, reason: "Lost coins in the outage", actor: "sam@support" });
    expect(small.statusCode, small.body).toBe(200);
    const large = await admin("POST", `/players/${playerId}/support-grants`, { kind: "coins", rewardId: "gold", amount: 5000, reason: "Refund of a double purchase", actor: "sam@support" });
    const { grant } = S.SupportGrantResponse.parse(large.json());
    expect(grant.status).toBe("pending");
    expect((await admin("POST", `/support-grants/${grant.grantId}/approve`, { actor: "lee@lead", reason: "Receipt checked" })).statusCode).toBe(200);
    // Three rewards granted, three deliveries answered by the receiver.
    await eventually(async () => {
      const deliveries = (await page(playerId, "?kinds=delivery")).entries;
      expect(deliveries.map((d) => (d.kind === "delivery" ? d.status : null))).toEqual(["delivered", "delivered", "delivered"]);
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await t?.close();
  });

  it("tells what happened newest first: offer transitions with their causes, rewards, deliveries with their attempts, support grants", async () => {
    const { entries, next } = await page(playerId);
    expect(next).toBeNull();
    const times = entries.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const offers = entries.filter((e) => e.kind === "offer");
    expect(offers.map((o) => [o.offerId, o.offerName, o.to, o.cause]).at(-1)).toEqual(["armory", "Armory", expect.any(String), "assign"]);
    expect(offers).toContainEqual(expect.objectContaining({ to: "claimed", cause: "claim", actor: null, reason: null }));
    // The re-offer by support names who and why.
    expect(offers[0]).toMatchObject({ offerId: "armory", cause: "support", actor: "kim@support", reason: "Missed the event by a day" });

    const rewards = entries.filter((e) => e.kind === "reward");
    expect(rewards.map((r) => [r.sourceKind, r.source, r.actor, r.approvedBy, r.reason, r.rewards[0]?.amount])).toEqual([
      ["support", "support", "sam@support", "lee@lead", "Refund of a double purchase", 5000],
      ["support", "support", "sam@support", null, "Lost coins in the outage", 50],
      ["offer", "server", null, null, null, 1],
    ]);

    const deliveries = entries.filter((e) => e.kind === "delivery");
    expect(deliveries.map((d) => d.messageId).sort()).toEqual(rewards.map((r) => r.eventId).sort());
    for (const d of deliveries) expect(d.attempts).toEqual([expect.objectContaining({ statusCode: 200, error: null })]);

    const support = entries.filter((e) => e.kind === "support");
    expect(support.map((s) => [s.action, s.by, s.reason, s.reward.amount])).toEqual(
      expect.arrayContaining([
        ["approved", "lee@lead", "Receipt checked", 5000],
        ["requested", "sam@support", "Refund of a double purchase", 5000],
        ["granted", "sam@support", "Lost coins in the outage", 50],
      ]),
    );
    expect(support).toHaveLength(3);
    // A decision reads above its request, even when both fall in the same millisecond.
    expect(support.findIndex((s) => s.action === "approved")).toBeLessThan(support.findIndex((s) => s.action === "requested"));
    // At one instant, cause comes before effect in reading order (newest first): a delivery above its
    // reward, the reward above the approval that granted it.
    const at = (e: S.TimelineEntry) => entries.indexOf(e);
    const approvedReward = rewards[0]!;
    expect(at(approvedReward)).toBeLessThan(at(support[0]!));
  });

  it("pages through every entry once and in the same order, whatever the page size and the kinds kept", async () => {
    const whole = (await page(playerId, "?limit=200")).entries.map(key);
    expect(whole.length).toBeGreaterThanOrEqual(12);
    for (const limit of [1, 2, 5]) expect((await all(playerId, limit)).map(key)).toEqual(whole);
    for (const kinds of ["offer", "reward,support", "delivery,offer"]) {
      const kept = kinds.split(",");
      expect((await all(playerId, 2, kinds)).map(key)).toEqual(whole.filter((k) => kept.includes(k.split(":")[0]!)));
    }
  });

  it("keeps environments apart, and refuses what it cannot read with a 4xx", async () => {
    const test = await admin("GET", `/players/${playerId}/timeline`, undefined, { "x-offers-environment": "test" });
    expect(test.statusCode).toBe(404);
    expect(test.json()).toMatchObject({ message: "player-not-found" });
    expect((await admin("GET", "/players/nobody-here/timeline")).statusCode).toBe(404);

    const unknownKind = await admin("GET", `/players/${playerId}/timeline?kinds=offer,snapshots`);
    expect(unknownKind.statusCode).toBe(400);
    expect(JSON.stringify(unknownKind.json())).toContain('unknown kind \\"snapshots\\"');
    const forged = await admin("GET", `/players/${playerId}/timeline?before=${Buffer.from('["1", 9, "x"]').toString("base64url")}`);
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ message: "invalid-cursor" });
    for (const query of ["limit=0", "limit=201", "before=%00", `before=${"a".repeat(301)}`]) {
      expect((await admin("GET", `/players/${playerId}/timeline?${query}`)).statusCode, query).toBe(400);
    }
  });
});
