/**
 * Support's acts on one player's offers, through the admin API on a real database: expire, revoke,
 * extend and make claimable an instance, re-offer a definition, re-send the player's deliveries. Each
 * goes through the status machine (a forbidden transition is a 409 with its code), is recorded in the
 * player's history with cause support, who and why, reaches the event listeners like any change, and
 * answers a repeat with the current state; bad input is a 4xx that changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { eventually, startReceiver, type Receiver } from "@/test-support/offers/delivery";
import { startOffersTestApp, storedStateDigest, type OffersTestContext } from "@/test-support/offers/test-app";
import { MemoryEventBus } from "../events";
import { createEventStream } from "./sse";
import * as S from "./contract";
import { DeliveryWorker } from "./delivery/worker";
import type { OfferEvent } from "./engine";

const ADMIN = "support-actions-admin-token-0123456789";
const DAY_MS = 24 * 3600 * 1000;
const who = { actor: "sam@support", reason: "Stuck offer after the 3 May outage" };

describe.each(testDatabaseTargets())("support actions on offers on %s", (target) => {
  let t: OffersTestContext;
  let receiver: Receiver;
  let worker: DeliveryWorker;
  let players = 0;
  const events: OfferEvent[] = [];
  const admin = (method: "GET" | "POST", url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.inject({ method, url: `/v1/admin/games/game-a${url}`, headers: { authorization: `Bearer ${ADMIN}`, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const act = (playerId: string, instanceId: string, action: S.SupportOfferAction, body: Record<string, unknown> = who, headers: Record<string, string> = {}) =>
    admin("POST", `/players/${playerId}/offers/${instanceId}/${action}`, body, headers);
  const state = async (playerId: string) => S.AdminPlayerState.parse((await admin("GET", `/players/${playerId}`)).json());
  const offerOf = async (playerId: string, instanceId: string) => (await state(playerId)).offers.find((o) => o.instanceId === instanceId)!;
  const assign = async (playerId: string, offerId: string) => {
    const res = await t.post("/v1/player/offers/assign", { playerId, offerId }, t.apiHeaders());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return S.Offer.parse(res.body);
  };

  async function newPlayer(): Promise<string> {
    players += 1;
    const playerId = `actions-p${players}`;
    expect((await t.post("/v1/player/snapshot", { playerId, username: `Player ${players}` }, t.apiHeaders())).status).toBe(200);
    return playerId;
  }

  beforeAll(async () => {
    const stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 60_000, staleTimeoutMs: 60_000 });
    t = await startOffersTestApp(target, { eventStream: stream, adminToken: ADMIN });
    t.app.offers.engine.onOfferEvent((event) => events.push(event));
    const api = t.apiHeaders();
    const coins = { kind: "coins", rewardId: "gold", name: "Gold", amount: 50 };
    for (const offerId of ["alpha", "beta", "gamma", "delta"]) {
      const res = await t.inject({ method: "PUT", url: `/v1/offers/definitions/${offerId}`, headers: api, payload: { name: offerId, rewards: [coins], durationSeconds: 3600, realTime: true } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const spender = { name: "Spender", rewards: [coins], durationSeconds: 3600, completionConditions: [{ kind: "spendCurrency", id: "gold", name: "Gold", amount: 100 }] };
    expect((await t.inject({ method: "PUT", url: "/v1/offers/definitions/spender", headers: api, payload: spender })).statusCode).toBe(200);
    receiver = await startReceiver();
    const endpoint = await t.post("/v1/webhooks/endpoints", { url: receiver.url }, api);
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(200);
    worker = new DeliveryWorker({ db: t.app.offers.engine.db, box: t.app.offers.box, addressPolicy: { allowPrivate: true }, timeoutMs: 5_000, pollMs: 20, concurrency: 4, perEndpoint: 2, retry: { delaysMs: [30], jitter: 0 } });
    worker.start();
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await t?.close();
  });

  it("expires an open offer: history cause support with who and why, the listeners see it; a repeat answers the current state and writes nothing", async () => {
    const playerId = await newPlayer();
    const offer = await assign(playerId, "alpha");
    const res = await act(playerId, offer.instanceId, "expire");
    expect(res.statusCode, res.body).toBe(200);
    expect(S.SupportOfferActionResponse.parse(res.json())).toMatchObject({ changed: true, offer: { instanceId: offer.instanceId, status: "expired" } });
    const history = (await offerOf(playerId, offer.instanceId)).events;
    expect(history.at(-1)).toMatchObject({ type: "expired", fromStatus: "surfaced", toStatus: "expired", cause: "support", actor: "sam@support", reason: who.reason });
    // Watchers see who acted (the live view says so), as the history does.
    expect(events.filter((e) => e.instanceId === offer.instanceId && e.cause === "support")).toEqual([expect.objectContaining({ actor: "sam@support" })]);

    const before = await storedStateDigest(t.app.offers.engine.db, { withoutDeliveryWork: true });
    const again = await act(playerId, offer.instanceId, "expire", { actor: "kim@support", reason: "double click" });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ changed: false, offer: { status: "expired" } });
    expect(await storedStateDigest(t.app.offers.engine.db, { withoutDeliveryWork: true })).toBe(before);
    expect((await offerOf(playerId, offer.instanceId)).events).toHaveLength(history.length);
  });

  it("an expire frees the slot: the queued offer surfaces at once", async () => {
    const playerId = await newPlayer();
    const held = [await assign(playerId, "alpha"), await assign(playerId, "beta"), await assign(playerId, "gamma")];
    const queued = await assign(playerId, "delta");
    expect(queued.status).toBe("inQueue");
    expect((await act(playerId, held[1]!.instanceId, "expire")).statusCode).toBe(200);
    const promoted = await offerOf(playerId, queued.instanceId);
    expect(promoted.status).toBe("surfaced");
    expect(promoted.events.at(-1)).toMatchObject({ type: "surfaced", cause: "slot-freed" });
  });

  it("makes an offer claimable, then refuses to expire or extend it; revoke takes it back and the claim is refused", async () => {
    const playerId = await newPlayer();
    const offer = await assign(playerId, "spender");
    const made = await act(playerId, offer.instanceId, "make-claimable");
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ changed: true, offer: { status: "claimable", completionTrackers: { spendCurrency: 100 } } });
    expect((await act(playerId, offer.instanceId, "make-claimable")).json()).toMatchObject({ changed: false });

    const before = await storedStateDigest(t.app.offers.engine.db, { withoutDeliveryWork: true });
    const expire = await act(playerId, offer.instanceId, "expire");
    expect(expire.statusCode).toBe(409);
    expect(expire.json().message).toBe("offer-transition-refused");
    const extend = await act(playerId, offer.instanceId, "extend", { ...who, expiresAt: new Date(t.clock.now().getTime() + DAY_MS).toISOString() });
    expect(extend.statusCode).toBe(409);
    expect(extend.json().message).toBe("offer-transition-refused");
    expect(await storedStateDigest(t.app.offers.engine.db, { withoutDeliveryWork: true })).toBe(before);

    const revoked = await act(playerId, offer.instanceId, "revoke");
    expect(revoked.json()).toMatchObject({ changed: true, offer: { status: "expired" } });
    expect((await offerOf(playerId, offer.instanceId)).events.at(-1)).toMatchObject({ type: "revoked", fromStatus: "claimable", cause: "support" });
    const claim = await t.post("/v1/reward/sdk/claim", { kind: "offer", instanceId: offer.instanceId, playerId }, t.apiHeaders());
    expect(claim.status).toBe(409);
    expect((await act(playerId, offer.instanceId, "revoke")).json()).toMatchObject({ changed: false });
  });

  it("extends an offer's expiry within 30 days; the same expiry again is a repeat, an earlier or farther one is 400, a claimed offer 409", async () => {
    const playerId = await newPlayer();
    const offer = await assign(playerId, "alpha");
    const later = new Date(t.clock.now().getTime() + 2 * DAY_MS).toISOString();
    const res = await act(playerId, offer.instanceId, "extend", { ...who, expiresAt: later });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ changed: true, offer: { status: "surfaced", expiresAt: later } });
    expect((await offerOf(playerId, offer.instanceId)).events.at(-1)).toMatchObject({ type: "extended", fromStatus: "surfaced", toStatus: "surfaced", cause: "support", actor: "sam@support" });
    expect((await act(playerId, offer.instanceId, "extend", { ...who, expiresAt: later })).json()).toMatchObject({ changed: false });

    const before = await storedStateDigest(t.app.offers.engine.db, { withoutDeliveryWork: true });
    for (const expiresAt of [offer.expiresAt, new Date(t.clock.now().getTime() + 31 * DAY_MS).toISOString()]) {
      const refused = await act(playerId, offer.instanceId, "extend", { ...who, expiresAt });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe("expiry-out-of-range");
    }
    expect(await storedStateDigest(t.app.offers.engine.db, { withoutDeliveryWork: true })).toBe(before);

    // Past its old expiry the offer is still open: the extension holds.
    t.clock.advance(DAY_MS);
    try {
      expect((await offerOf(playerId, offer.instanceId)).status).toBe("surfaced");
      expect((await act(playerId, offer.instanceId, "make-claimable")).statusCode).toBe(200);
      expect((await t.post("/v1/reward/sdk/claim", { kind: "offer", instanceId: offer.instanceId, playerId }, t.apiHeaders())).status).toBe(200);
      const claimed = await act(playerId, offer.instanceId, "extend", { ...who, expiresAt: new Date(t.clock.now().getTime() + DAY_MS).toISOString() });
      expect(claimed.statusCode).toBe(409);
      expect(claimed.json().message).toBe("offer-transition-refused");
      expect((await act(playerId, offer.instanceId, "revoke")).statusCode).toBe(409);
    } finally {
      t.clock.advance(-DAY_MS);
    }
  });

  it("refuses to make a queued offer claimable (it holds no slot)", async () => {
    const playerId = await newPlayer();
    for (const offerId of ["alpha", "beta", "gamma"]) await assign(playerId, offerId);
    const queued = await assign(playerId, "delta");
    const res = await act(playerId, queued.instanceId, "make-claimable");
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: "offer-transition-refused" });
  });

  it("re-offers a definition with cause support; a repeat while it is open is 409 offer-already-assigned and assigns once", async () => {
    const playerId = await newPlayer();
    const res = await admin("POST", `/players/${playerId}/offers`, { offerId: "beta", ...who });
    expect(res.statusCode, res.body).toBe(200);
    const { offer } = S.SupportAssignResponse.parse(res.json());
    expect(offer).toMatchObject({ offerId: "beta", status: "surfaced" });
    expect((await offerOf(playerId, offer.instanceId)).events).toEqual([expect.objectContaining({ type: "surfaced", cause: "support", actor: "sam@support", reason: who.reason })]);
    // A real-time offer surfaced by support reaches the player's stream like any surfaced offer.
    expect(events.some((e) => e.instanceId === offer.instanceId && e.type === "surfaced" && e.offer.realTime)).toBe(true);

    const again = await admin("POST", `/players/${playerId}/offers`, { offerId: "beta", ...who });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("offer-already-assigned");
    expect((await state(playerId)).offers.filter((o) => o.offerId === "beta")).toHaveLength(1);
    expect((await admin("POST", `/players/${playerId}/offers`, { offerId: "no-such-offer", ...who })).statusCode).toBe(404);
  });

  it("re-sends the player's deliveries, all or one; a repeat within seconds sends nothing more; another player's delivery is 404", async () => {
    const playerId = await newPlayer();
    const other = await newPlayer();
    const claimOne = async (who: string) => {
      const offer = await assign(who, "gamma");
      expect((await act(who, offer.instanceId, "make-claimable")).statusCode).toBe(200);
      expect((await t.post("/v1/reward/sdk/claim", { kind: "offer", instanceId: offer.instanceId, playerId: who }, t.apiHeaders())).status).toBe(200);
    };
    await claimOne(playerId);
    await claimOne(other);
    const deliveriesOf = async (id: string) => {
      const page = S.WebhookDeliveryPage.parse((await admin("GET", "/webhooks/deliveries?limit=200")).json());
      return page.deliveries.filter((d) => d.playerId === id);
    };
    const [mine] = await eventually(async () => {
      const found = await deliveriesOf(playerId);
      expect(found.map((d) => d.status)).toEqual(["delivered"]);
      return found;
    });
    const [theirs] = await eventually(async () => {
      const found = await deliveriesOf(other);
      expect(found.map((d) => d.status)).toEqual(["delivered"]);
      return found;
    });

    const resend = (body: Record<string, unknown>, id = playerId) => admin("POST", `/players/${id}/deliveries/replay`, body);
    // A double click: two requests at once queue one send.
    const clicks = await Promise.all([resend(who), resend(who)]);
    expect(clicks.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(clicks.map((r) => r.json())).toEqual([{ replayed: 1 }, { replayed: 1 }]);
    await eventually(() => expect(receiver.of(mine!.messageId)).toHaveLength(2));
    await eventually(async () => expect((await deliveriesOf(playerId))[0]).toMatchObject({ status: "delivered", attempts: 2 }));
    // Within the repeat window the same replay again changes nothing (the clock of the service stands still here).
    expect((await resend({ ...who, deliveryId: mine!.deliveryId })).json()).toEqual({ replayed: 1 });
    expect((await deliveriesOf(playerId))[0]).toMatchObject({ status: "delivered", attempts: 2 });

    const before = (await deliveriesOf(other))[0];
    const foreign = await resend({ ...who, deliveryId: theirs!.deliveryId });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe("webhook-delivery-not-found");
    expect((await deliveriesOf(other))[0]).toEqual(before);

    t.clock.advance(10_000);
    try {
      expect((await resend({ ...who, deliveryId: mine!.deliveryId })).json()).toEqual({ replayed: 1 });
      await eventually(() => expect(receiver.of(mine!.messageId)).toHaveLength(3));
      await eventually(async () => expect((await deliveriesOf(playerId))[0]).toMatchObject({ status: "delivered", attempts: 3 }));
    } finally {
      t.clock.advance(-10_000);
    }
  });

  it("refuses bad input with a clear 4xx and changes nothing", async () => {
    const playerId = await newPlayer();
    const offer = await assign(playerId, "alpha");
    const soon = new Date(t.clock.now().getTime() + DAY_MS).toISOString();
    const db = t.app.offers.engine.db;
    const before = await storedStateDigest(db);
    const cases: Array<[string, string, unknown, number, string, Record<string, string>?]> = [
      ["NUL in the reason", `/players/${playerId}/offers/${offer.instanceId}/expire`, { ...who, reason: "a\u0000b" }, 400, "invalid-request"],
      ["10,000-character reason", `/players/${playerId}/offers/${offer.instanceId}/revoke`, { ...who, reason: "x".repeat(10_000) }, 400, "invalid-request"],
      ["blank reason", `/players/${playerId}/offers/${offer.instanceId}/make-claimable`, { ...who, reason: "  " }, 400, "invalid-request"],
      ["no actor", `/players/${playerId}/offers/${offer.instanceId}/expire`, { reason: who.reason }, 400, "invalid-request"],
      ["unknown key", `/players/${playerId}/offers/${offer.instanceId}/expire`, { ...who, extra: 1 }, 400, "invalid-request"],
      ["extend without a date", `/players/${playerId}/offers/${offer.instanceId}/extend`, who, 400, "invalid-request"],
      ["extend to no date", `/players/${playerId}/offers/${offer.instanceId}/extend`, { ...who, expiresAt: "tomorrow" }, 400, "invalid-request"],
      ["unknown instance", `/players/${playerId}/offers/no-such-instance/expire`, who, 404, "offer-not-found"],
      ["bad instance id", `/players/${playerId}/offers/${encodeURIComponent("a b")}/expire`, who, 400, "invalid-request"],
      ["unknown player", `/players/nobody-here/offers/${offer.instanceId}/expire`, who, 404, "player-not-found"],
      ["another player's instance", `/players/actions-p1/offers/${offer.instanceId}/extend`, { ...who, expiresAt: soon }, 404, "offer-not-found"],
      ["the other environment's ids", `/players/${playerId}/offers/${offer.instanceId}/expire`, who, 404, "player-not-found", { "x-offers-environment": "test" }],
      ["re-offer of no definition", `/players/${playerId}/offers`, { offerId: "nothing", ...who }, 404, "offer-not-found"],
      ["re-offer with a bad offer id", `/players/${playerId}/offers`, { offerId: "a/b", ...who }, 400, "invalid-request"],
      ["re-send with a string id", `/players/${playerId}/deliveries/replay`, { ...who, deliveryId: "1" }, 400, "invalid-request"],
      ["re-send with a boolean id", `/players/${playerId}/deliveries/replay`, { ...who, deliveryId: true }, 400, "invalid-request"],
      ["re-send of no delivery", `/players/${playerId}/deliveries/replay`, { ...who, deliveryId: 999_999_999 }, 404, "webhook-delivery-not-found"],
      ["re-send for the other environment", `/players/${playerId}/deliveries/replay`, who, 404, "player-not-found", { "x-offers-environment": "test" }],
    ];
    for (const [name, url, body, status, code, headers] of cases) {
      const res = await admin("POST", url, body, headers);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
      expect(res.json().message, name).toBe(code);
    }
    expect(await storedStateDigest(db)).toBe(before);
  });
});
