/**
 * Reward delivery end to end on a real database, with real HTTP receivers on loopback that verify
 * every request with the standardwebhooks package: claims (client, server, rewards page) become
 * signed webhooks, delivered once; retried after errors and timeouts with the same webhook-id;
 * failed after the schedule, and replayed; nothing to a disabled endpoint; a hanging endpoint holds
 * up no other game; two endpoints on one host; deliveries held waiting for a slot; two workers deliver
 * each event once; what wakes the worker between polls. Short schedules and timeouts are injected.
 */
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { contractDatabaseTargets } from "@/test-support/db/test-databases";
import { MemoryEventBus } from "../../events";
import { createEventStream } from "../sse";
import * as S from "../contract";
import { startOffersTestApp, type OffersTestContext, type TestGame } from "@/test-support/offers/test-app";
import { and, eq } from "drizzle-orm";
import { webhookDeliveries } from "../db/schema";
import { purgeDeliveries, REPLAY_REPEAT_WINDOW_MS } from "./delivery-log";
import { eventually, startReceiver, type Receiver } from "@/test-support/offers/delivery";
import { DeliveryWorker, type DeliveryWorkerOptions } from "./worker";

const ADMIN = "test-admin-token-0123456789";
const gift = [{ kind: "coins" as const, rewardId: "gold", name: "Gold", amount: 25 }];

describe.each(contractDatabaseTargets())("reward delivery on %s", (target) => {
  let t: OffersTestContext;
  const receivers: Receiver[] = [];
  const workers: DeliveryWorker[] = [];
  /** Unsubscribes of workers following the app's claims and endpoints, as the service wires them. */
  const following: (() => void)[] = [];
  let games = 0;

  beforeAll(async () => {
    const stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 60_000, staleTimeoutMs: 60_000 });
    t = await startOffersTestApp(target, { eventStream: stream, adminToken: ADMIN });
  });
  afterEach(async () => {
    for (const stop of following.splice(0)) stop();
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  afterAll(async () => t?.close());

  /** A game of its own per test, so endpoints and events of other tests never mix in. */
  async function newGame(): Promise<TestGame & { headers: Record<string, string> }> {
    games += 1;
    const game = await t.app.offers.games.createGame({ gameId: `delivery-${games}`, name: `Delivery ${games}`, clientId: `delivery-client-${games}`, apiKey: `delivery-key-${games}-0123456789` });
    const headers = t.apiHeaders(game);
    const put = await t.inject({ method: "PUT", url: "/v1/offers/definitions/gift", headers, payload: { name: "Gift", rewards: gift, durationSeconds: 86_400 } });
    expect(put.statusCode, put.body).toBe(200);
    return { ...game, headers };
  }

  /** An offer without conditions, assigned and viewed: claimable. */
  async function claimable(game: TestGame, playerId: string): Promise<string> {
    const offer = await t.app.offers.engine.assignOffer(game.gameId, playerId, "gift");
    await t.app.offers.engine.fetchCampaigns(game.gameId, playerId, { viewing: true, includeQueued: false });
    return offer.instanceId;
  }

  async function clientClaim(game: TestGame, playerId: string, instanceId: string): Promise<void> {
    const jwt = await t.jwt(playerId, { gameId: game.gameId, apiKey: game.apiKey });
    const res = await t.post("/v1/client/reward/claim", { kind: "offer", instanceId }, { "x-game-jwt": jwt });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  async function receiverEndpoint(game: TestGame & { headers: Record<string, string> }, body: Record<string, unknown> = {}) {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const res = await t.post("/v1/webhooks/endpoints", { url: receiver.url, ...body }, game.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const created = S.WebhookEndpointCreated.parse(res.body);
    receiver.secret = created.secret;
    return { receiver, endpoint: created };
  }

  function startWorker(options: Partial<DeliveryWorkerOptions> = {}): DeliveryWorker {
    const worker = new DeliveryWorker({
      db: t.app.offers.engine.db,
      box: t.app.offers.box,
      addressPolicy: { allowPrivate: true },
      // Long enough that a busy machine's slow answer is never taken for a timeout (and retried, so sent
      // twice); the tests of timeouts set their own.
      timeoutMs: 5_000,
      pollMs: 20,
      concurrency: 16,
      perEndpoint: 4,
      retry: { delaysMs: [30, 30, 30, 30], jitter: 0 },
      ...options,
    });
    workers.push(worker);
    worker.start();
    return worker;
  }

  async function feed(game: TestGame & { headers: Record<string, string> }) {
    const res = await t.inject({ method: "GET", url: "/v1/rewards/events?limit=500", headers: game.headers });
    expect(res.statusCode, res.body).toBe(200);
    return S.RewardFeedResponse.parse(res.json()).events;
  }

  /** Waits until every event of the game is fanned out (`count` deliveries): the rounds the claims woke are over. */
  async function heldAll(gameId: string, count: number) {
    await eventually(async () => expect(S.WebhookDeliveryPage.parse((await log(gameId)).json()).deliveries).toHaveLength(count));
    await new Promise((r) => setTimeout(r, 100));
  }

  /**
   * Runs `during` while a transaction that began before it is still open (PostgreSQL), then commits that
   * transaction: events are fanned out in commit order, so what commits meanwhile waits behind it.
   */
  async function whileAnOlderTransactionRuns(during: () => Promise<void>): Promise<void> {
    const older = new pg.Client({ connectionString: t.database.url });
    await older.connect();
    try {
      await older.query("begin");
      await older.query("select pg_current_xact_id()");
      await during();
      await older.query("commit");
    } finally {
      await older.end();
    }
  }

  async function log(gameId: string) {
    const res = await t.inject({ method: "GET", url: `/v1/admin/games/${gameId}/webhooks/deliveries`, headers: { authorization: `Bearer ${ADMIN}` } });
    return res;
  }

  it("delivers a client claim once, signed per Standard Webhooks, with the event the feed shows", async () => {
    const game = await newGame();
    const { receiver } = await receiverEndpoint(game);
    startWorker();
    const instanceId = await claimable(game, "p1");
    await clientClaim(game, "p1", instanceId);

    const [delivered] = await eventually(() => {
      expect(receiver.received).toHaveLength(1);
      return receiver.received;
    });
    const [event] = await feed(game);
    expect(delivered!.verified).toEqual(event);
    expect(delivered!.id).toBe(event!.id);
    expect(event).toMatchObject({
      type: "reward.granted",
      data: { gameId: game.gameId, playerId: "p1", kind: "offer", instanceId, offerId: "gift", rewards: gift, source: "client" },
    });
    // Nothing more arrives: one event, one delivery.
    await workers[0]!.round();
    await workers[0]!.idle();
    expect(receiver.received).toHaveLength(1);
  });

  it("names who claimed: the game server, the rewards page, and a referral's claim", async () => {
    const game = await newGame();
    const { receiver } = await receiverEndpoint(game);
    startWorker();
    const byServer = await claimable(game, "p-server");
    expect((await t.post("/v1/reward/sdk/claim", { kind: "offer", instanceId: byServer, playerId: "p-server" }, game.headers)).status).toBe(200);

    const byPage = await claimable(game, "p-page");
    const token = await t.app.offers.tokens.generate(game.gameId, "p-page");
    const redeemed = await t.post("/v1/auth/one_time_token/redeem", { token, gameId: game.gameId });
    expect(redeemed.status).toBe(200);
    expect((await t.post("/v1/client/reward/claim", { kind: "offer", instanceId: byPage }, { authorization: `Bearer ${redeemed.body.accessToken}` })).status).toBe(200);

    await t.app.offers.engine.pushSnapshot(game.gameId, { playerId: "friend" });
    const referral = await t.post("/v1/referrals", { referrerId: "p-ref", refereeId: "friend", rewards: gift }, game.headers);
    expect((await t.post("/v1/client/reward/claim", { kind: "referral", instanceId: referral.body.instanceId }, { "x-game-jwt": await t.jwt("p-ref", game) })).status).toBe(200);

    const bodies = await eventually(() => {
      expect(receiver.received).toHaveLength(3);
      return receiver.received.map((r) => S.RewardGrantedEvent.parse(r.verified));
    });
    const byPlayer = Object.fromEntries(bodies.map((b) => [b.data.playerId, b.data]));
    expect(byPlayer["p-server"]).toMatchObject({ source: "server", kind: "offer", instanceId: byServer });
    expect(byPlayer["p-page"]).toMatchObject({ source: "dashboard", kind: "offer", instanceId: byPage });
    expect(byPlayer["p-ref"]).toMatchObject({ source: "client", kind: "referral", instanceId: referral.body.instanceId, rewards: gift });
    expect(byPlayer["p-ref"]).not.toHaveProperty("offerId");
  });

  it("retries a receiver that answers 500 three times, then delivers with the same webhook-id; the log shows each attempt", async () => {
    const game = await newGame();
    const { receiver } = await receiverEndpoint(game);
    receiver.behave(({ n }) => (n < 3 ? 500 : 200));
    startWorker();
    await clientClaim(game, "p1", await claimable(game, "p1"));

    await eventually(() => expect(receiver.received).toHaveLength(4));
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    expect(receiver.received.every((r) => r.verified !== null)).toBe(true);
    const page = S.WebhookDeliveryPage.parse((await eventually(async () => {
      const res = await log(game.gameId);
      expect(res.json().deliveries[0].status).toBe("delivered");
      return res;
    })).json());
    const [delivery] = page.deliveries;
    expect(delivery).toMatchObject({ status: "delivered", attempts: 4, lastStatusCode: 200, nextAttemptAt: null, playerId: "p1", rewards: gift });
    expect(delivery!.attemptLog.map((a) => a.statusCode)).toEqual([200, 500, 500, 500]);
  });

  it("gives up on a receiver that does not answer in time and tries again", async () => {
    const game = await newGame();
    const { receiver } = await receiverEndpoint(game);
    receiver.behave(({ n }) => (n === 0 ? "hang" : 200));
    startWorker({ timeoutMs: 300 });
    await clientClaim(game, "p1", await claimable(game, "p1"));

    await eventually(() => expect(receiver.received).toHaveLength(2));
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
    const delivery = await eventually(async () => {
      const [d] = S.WebhookDeliveryPage.parse((await log(game.gameId)).json()).deliveries;
      expect(d!.status).toBe("delivered");
      return d!;
    });
    expect(delivery.attemptLog.map((a) => a.error)).toEqual([null, "timeout: no answer within 300 ms"]);
  });

  it.skipIf(target !== "postgres")("with the poll a minute away, a claim that an older transaction still hides is sent as soon as that transaction ends", async () => {
    const hooked = await newGame();
    const { receiver } = await receiverEndpoint(hooked);
    const worker = startWorker({ pollMs: 60_000 });
    following.push(worker.follow(t.app.offers.engine, t.app.offers.webhooks));
    await worker.round(); // has read which games have an endpoint
    await worker.idle();
    const instanceId = await claimable(hooked, "p1");

    await whileAnOlderTransactionRuns(async () => {
      await clientClaim(hooked, "p1", instanceId);
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(0);
    });
    await eventually(() => expect(receiver.received).toHaveLength(1), 5_000);
  });

  it.skipIf(target !== "postgres")("with the poll a minute away, an event that an older transaction hid when the worker started is sent as soon as that transaction ends, no claim waking it", async () => {
    const hooked = await newGame();
    const { receiver } = await receiverEndpoint(hooked);
    const instanceId = await claimable(hooked, "p1");
    await whileAnOlderTransactionRuns(async () => {
      // Committed while the older transaction runs, before this worker starts (as after a restart, or
      // a claim on another instance): nothing wakes the worker for it.
      await clientClaim(hooked, "p1", instanceId);
      startWorker({ pollMs: 60_000 });
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(0);
    });
    await eventually(() => expect(receiver.received).toHaveLength(1), 5_000);
  });

  it("with the poll a minute away, a claim, a new endpoint's first claim, a test event and a replay are sent at once; a claim in a game without an endpoint wakes nothing", async () => {
    const hooked = await newGame();
    const { receiver, endpoint } = await receiverEndpoint(hooked);
    const plain = await newGame();
    const worker = startWorker({ pollMs: 60_000 });
    following.push(worker.follow(t.app.offers.engine, t.app.offers.webhooks));
    await worker.round(); // has read which games have an endpoint
    await worker.idle();
    // The games whose claims woke the worker. Only wake-ups a claim caused count: the worker also wakes by itself
    // (a retry due of an earlier test's delivery, events an older transaction hid on a shared server).
    const wokenBy: string[] = [];
    const wakes = vi.spyOn(worker, "wake");
    const granted = worker.granted.bind(worker);
    vi.spyOn(worker, "granted").mockImplementation((gameId) => {
      const before = wakes.mock.calls.length;
      granted(gameId);
      if (wakes.mock.calls.length > before) wokenBy.push(gameId);
    });

    await clientClaim(plain, "p1", await claimable(plain, "p1"));
    await new Promise((r) => setTimeout(r, 300));
    expect(wokenBy).not.toContain(plain.gameId);

    await clientClaim(hooked, "p1", await claimable(hooked, "p1"));
    await eventually(() => expect(receiver.received).toHaveLength(1), 5_000);
    expect(wokenBy).toContain(hooked.gameId);

    // An endpoint created here: the game's next claim wakes the worker too.
    const late = await receiverEndpoint(plain);
    await clientClaim(plain, "p2", await claimable(plain, "p2"));
    await eventually(() => expect(late.receiver.received.map((r) => (r.verified as { data: { playerId: string } }).data.playerId)).toEqual(["p2"]), 5_000);

    const sent = await t.post(`/v1/webhooks/endpoints/${endpoint.endpointId}/test`, {}, hooked.headers);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await eventually(() => expect(receiver.received.map((r) => r.id)).toContain(sent.body.messageId), 5_000);

    const [first] = S.WebhookDeliveryPage.parse((await log(hooked.gameId)).json()).deliveries.filter((d) => d.playerId === "p1");
    const replay = await t.inject({ method: "POST", url: `/v1/admin/games/${hooked.gameId}/webhooks/deliveries/${first!.deliveryId}/replay`, headers: { authorization: `Bearer ${ADMIN}` } });
    expect(replay.statusCode, replay.body).toBe(200);
    await eventually(() => expect(receiver.received.filter((r) => r.id === first!.messageId)).toHaveLength(2), 5_000);
  });

  it("fails a delivery after the last retry; replaying the failed ones of a time range delivers them with the same id", async () => {
    const game = await newGame();
    const { receiver, endpoint } = await receiverEndpoint(game);
    receiver.behave(() => 503);
    startWorker({ retry: { delaysMs: [20, 20], jitter: 0 } });
    await clientClaim(game, "p1", await claimable(game, "p1"));

    const failed = await eventually(async () => {
      const [d] = S.WebhookDeliveryPage.parse((await log(game.gameId)).json()).deliveries;
      expect(d!.status).toBe("failed");
      return d!;
    });
    expect(failed.attempts).toBe(3);
    expect(receiver.received).toHaveLength(3);
    const admin = { authorization: `Bearer ${ADMIN}` };
    const overview = S.AdminWebhooks.parse((await t.inject({ method: "GET", url: `/v1/admin/games/${game.gameId}/webhooks`, headers: admin })).json());
    expect(overview.stats).toMatchObject({ failed: 1, pending: 0 });

    receiver.behave(() => 200);
    const from = new Date(Date.parse(failed.eventAt) - 60_000).toISOString();
    const to = new Date(Date.parse(failed.eventAt) + 60_000).toISOString();
    const replay = await t.inject({ method: "POST", url: `/v1/admin/games/${game.gameId}/webhooks/replay`, headers: admin, payload: { from, to, endpointId: endpoint.endpointId } });
    expect(replay.json()).toEqual({ replayed: 1 });
    await eventually(() => expect(receiver.received).toHaveLength(4));
    expect(receiver.received[3]!.id).toBe(failed.messageId);
    expect(receiver.received[3]!.verified).not.toBeNull();
  });

  it("a game server reads its own delivery log and figures and replays with its API key; another game's deliveries are invisible to it", async () => {
    const game = await newGame();
    const other = await newGame();
    const { receiver, endpoint } = await receiverEndpoint(game);
    receiver.behave(() => 503);
    // A deadline a loaded machine meets: the receiver answers every attempt (503, then 200), none times out.
    startWorker({ retry: { delaysMs: [20, 20], jitter: 0 }, timeoutMs: 5_000 });
    await clientClaim(game, "p1", await claimable(game, "p1"));
    const ownLog = async (headers: Record<string, string>, query = "") => {
      const res = await t.inject({ method: "GET", url: `/v1/webhooks/deliveries${query}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      return S.WebhookDeliveryPage.parse(res.json());
    };

    const failed = await eventually(async () => {
      const [d] = (await ownLog(game.headers)).deliveries;
      expect(d!.status).toBe("failed");
      return d!;
    });
    expect(failed).toMatchObject({ endpointId: endpoint.endpointId, url: receiver.url, attempts: 3, lastStatusCode: 503, playerId: "p1", rewards: gift });
    expect((await ownLog(game.headers, "?status=delivered")).deliveries).toEqual([]);
    const stats = await t.inject({ method: "GET", url: "/v1/webhooks/stats", headers: game.headers });
    expect(S.DeliveryStats.parse(stats.json())).toMatchObject({ failed: 1, pending: 0 });

    // Another game's key sees nothing of it and replays nothing of it.
    expect(await ownLog(other.headers)).toEqual({ deliveries: [], nextBefore: null });
    expect((await ownLog(other.headers, `?endpointId=${endpoint.endpointId}`)).deliveries).toEqual([]);
    expect(S.DeliveryStats.parse((await t.inject({ method: "GET", url: "/v1/webhooks/stats", headers: other.headers })).json())).toMatchObject({ failed: 0 });
    const foreign = await t.inject({ method: "POST", url: `/v1/webhooks/deliveries/${failed.deliveryId}/replay`, headers: other.headers });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: "webhook-delivery-not-found" });
    const from = new Date(Date.parse(failed.eventAt) - 60_000).toISOString();
    const to = new Date(Date.parse(failed.eventAt) + 60_000).toISOString();
    expect((await t.post("/v1/webhooks/replay", { from, to }, other.headers)).body).toEqual({ replayed: 0 });
    expect((await ownLog(game.headers)).deliveries[0]).toMatchObject({ status: "failed", attempts: 3 });
    expect(receiver.received).toHaveLength(3);
    expect((await t.inject({ method: "GET", url: "/v1/webhooks/deliveries" })).statusCode).toBe(401);

    // Its own key replays the failed ones of a time range, then one delivery: the same webhook-id each time.
    receiver.behave(() => 200);
    expect((await t.post("/v1/webhooks/replay", { from, to, endpointId: endpoint.endpointId }, game.headers)).body).toEqual({ replayed: 1 });
    await eventually(async () => expect((await ownLog(game.headers)).deliveries[0]).toMatchObject({ status: "delivered" }));
    const one = await t.inject({ method: "POST", url: `/v1/webhooks/deliveries/${failed.deliveryId}/replay`, headers: game.headers });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual({ replayed: 1 });
    await eventually(() => expect(receiver.received).toHaveLength(5));
    expect(new Set(receiver.received.map((r) => r.id))).toEqual(new Set([failed.messageId]));
    expect(receiver.received[4]!.verified).not.toBeNull();
    expect((await t.inject({ method: "POST", url: "/v1/webhooks/deliveries/999999999/replay", headers: game.headers })).json()).toEqual({ message: "webhook-delivery-not-found" });
    expect((await t.post("/v1/webhooks/replay", { from: to, to: from }, game.headers)).status).toBe(400);
  });

  it("replays one delivered event with the same id", async () => {
    const game = await newGame();
    const { receiver } = await receiverEndpoint(game);
    startWorker();
    await clientClaim(game, "p1", await claimable(game, "p1"));
    const delivery = await eventually(async () => {
      const [d] = S.WebhookDeliveryPage.parse((await log(game.gameId)).json()).deliveries;
      expect(d!.status).toBe("delivered");
      return d!;
    });
    const replay = await t.inject({ method: "POST", url: `/v1/admin/games/${game.gameId}/webhooks/deliveries/${delivery.deliveryId}/replay`, headers: { authorization: `Bearer ${ADMIN}` } });
    expect(replay.statusCode, replay.body).toBe(200);
    await eventually(() => expect(receiver.received).toHaveLength(2));
    expect(receiver.received.map((r) => r.id)).toEqual([delivery.messageId, delivery.messageId]);
    expect(receiver.received[1]!.verified).toEqual(receiver.received[0]!.verified);
  });

  it("two replays of one delivery at once, or within the repeat window, are one send; a replay after the window sends again", async () => {
    const game = await newGame();
    const { receiver } = await receiverEndpoint(game);
    startWorker();
    await clientClaim(game, "p1", await claimable(game, "p1"));
    const delivery = await eventually(async () => {
      const [d] = S.WebhookDeliveryPage.parse((await log(game.gameId)).json()).deliveries;
      expect(d!.status).toBe("delivered");
      return d!;
    });
    const replay = () => t.inject({ method: "POST", url: `/v1/admin/games/${game.gameId}/webhooks/deliveries/${delivery.deliveryId}/replay`, headers: { authorization: `Bearer ${ADMIN}` } });
    // A double-click: two replays at once, both answered as a replay.
    const twice = await Promise.all([replay(), replay()]);
    for (const r of twice) expect([r.statusCode, r.json()], r.body).toEqual([200, { replayed: 1 }]);
    await eventually(() => expect(receiver.received).toHaveLength(2));
    // Still inside the window once sent: nothing more goes out.
    t.clock.advance(REPLAY_REPEAT_WINDOW_MS - 1_000);
    expect((await replay()).json()).toEqual({ replayed: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(2);
    // Past the window, a replay is a new one.
    t.clock.advance(1_000);
    expect((await replay()).json()).toEqual({ replayed: 1 });
    await eventually(() => expect(receiver.received).toHaveLength(3));
    expect(new Set(receiver.received.map((r) => r.id))).toEqual(new Set([delivery.messageId]));
  });

  it("purges deliveries that ended before the retention cutoff; pending ones and the feed stay", async () => {
    const game = await newGame();
    const { receiver } = await receiverEndpoint(game);
    // The first request is answered, every later one fails: p2's delivery stays pending (long retry delays).
    receiver.behave(({ n }) => (n === 0 ? 200 : 500));
    startWorker({ retry: { delaysMs: [3_600_000], jitter: 0 } });
    await clientClaim(game, "p1", await claimable(game, "p1"));
    await eventually(() => expect(receiver.received).toHaveLength(1));
    await clientClaim(game, "p2", await claimable(game, "p2"));
    await eventually(() => expect(receiver.received).toHaveLength(2));
    const statuses = async () => S.WebhookDeliveryPage.parse((await log(game.gameId)).json()).deliveries.map((d) => `${d.playerId}:${d.status}`).sort();
    await eventually(async () => expect(await statuses()).toEqual(["p1:delivered", "p2:pending"]));

    const db = t.app.offers.engine.db;
    const hourAgo = new Date(Date.now() - 3_600_000);
    expect(await purgeDeliveries(db, hourAgo, 1_000)).toBe(0);
    expect(await statuses()).toEqual(["p1:delivered", "p2:pending"]);
    await purgeDeliveries(db, new Date(Date.now() + 3_600_000), 1_000);
    expect(await statuses()).toEqual(["p2:pending"]);
    expect((await feed(game)).map((e) => e.data.playerId).sort()).toEqual(["p1", "p2"]);
  });

  it("sends nothing to a disabled endpoint; the feed still has the event", async () => {
    const game = await newGame();
    const { receiver, endpoint } = await receiverEndpoint(game);
    const disabled = await t.inject({ method: "PATCH", url: `/v1/webhooks/endpoints/${endpoint.endpointId}`, headers: game.headers, payload: { enabled: false } });
    expect(disabled.json()).toMatchObject({ enabled: false });
    const worker = startWorker();
    await clientClaim(game, "p1", await claimable(game, "p1"));
    await eventually(async () => expect(await feed(game)).toHaveLength(1));
    // Rounds after the event was committed: it is fanned out to no one.
    for (let i = 0; i < 3; i++) await worker.round();
    await worker.idle();
    expect(receiver.received).toHaveLength(0);
    expect(S.WebhookDeliveryPage.parse((await log(game.gameId)).json()).deliveries).toHaveLength(0);
  });

  it("delivers a test event to the one endpoint asked", async () => {
    const game = await newGame();
    const { receiver, endpoint } = await receiverEndpoint(game);
    const other = await receiverEndpoint(game);
    startWorker();
    const sent = await t.post(`/v1/webhooks/endpoints/${endpoint.endpointId}/test`, {}, game.headers);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const [received] = await eventually(() => {
      expect(receiver.received).toHaveLength(1);
      return receiver.received;
    });
    expect(received!.verified).toMatchObject({ id: sent.body.messageId, type: "webhook.test", data: { gameId: game.gameId, endpointId: endpoint.endpointId } });
    expect(other.receiver.received).toHaveLength(0);
    expect(await feed(game)).toHaveLength(0);
  });

  it("keeps delivering other games' events while one game's endpoint hangs", async () => {
    const stuck = await newGame();
    const healthy = await newGame();
    const hanging = await receiverEndpoint(stuck);
    hanging.receiver.behave(() => "hang");
    const { receiver } = await receiverEndpoint(healthy);
    startWorker({ timeoutMs: 60_000, perEndpoint: 2, concurrency: 8 });
    for (let i = 0; i < 6; i++) await clientClaim(stuck, `s${i}`, await claimable(stuck, `s${i}`));
    await eventually(() => expect(hanging.receiver.received).toHaveLength(2)); // its two slots are held
    for (let i = 0; i < 5; i++) await clientClaim(healthy, `h${i}`, await claimable(healthy, `h${i}`));
    await eventually(() => expect(receiver.received).toHaveLength(5));
    expect(receiver.received.every((r) => r.verified !== null)).toBe(true);
    // The stuck endpoint still has its two requests hanging and no more.
    expect(hanging.receiver.received).toHaveLength(2);
  });

  it("holds as many deliveries again as an endpoint has slots: a slot that frees sends the next without a round", async () => {
    const game = await newGame();
    const { receiver } = await receiverEndpoint(game);
    receiver.behave(({ n }) => (n < 2 ? "hang" : 200));
    // Rounds come only when woken: a claim, or a slot freed while more is due than the worker holds.
    const worker = startWorker({ timeoutMs: 60_000, pollMs: 60_000, perEndpoint: 2, concurrency: 8 });
    following.push(worker.follow(t.app.offers.engine, t.app.offers.webhooks));
    for (let i = 0; i < 4; i++) await clientClaim(game, `p${i}`, await claimable(game, `p${i}`));
    await eventually(() => expect(receiver.received).toHaveLength(2));
    await heldAll(game.gameId, 4);
    expect(receiver.received, "never more than its slots in flight").toHaveLength(2);
    // From here rounds read nothing: what is sent next comes from what the worker holds.
    vi.spyOn(worker, "round").mockResolvedValue(false);
    receiver.release();
    await eventually(() => expect(receiver.received).toHaveLength(4));
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(4);
  });

  it("with the poll a minute away, a backlog many times an endpoint's share is sent without waiting for a poll", async () => {
    const game = await newGame();
    const { receiver } = await receiverEndpoint(game);
    for (let i = 0; i < 24; i++) await clientClaim(game, `b${i}`, await claimable(game, `b${i}`));
    // Its share is 4 held (2 slots, each with one waiting): the first round takes 4 and leaves 20 due.
    startWorker({ pollMs: 60_000, perEndpoint: 2, concurrency: 8 });
    await eventually(() => expect(receiver.received).toHaveLength(24), 15_000);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(24);
  });

  it("two endpoints on one host each get their own attempts in flight, past 64 together", async () => {
    const game = await newGame();
    const receiver = await startReceiver();
    receivers.push(receiver);
    for (const path of ["/grants", "/audit"]) {
      const res = await t.post("/v1/webhooks/endpoints", { url: `${receiver.url}${path}` }, game.headers);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    receiver.behave(() => "hang");
    startWorker({ timeoutMs: 60_000, perEndpoint: 40, concurrency: 100 });
    for (let i = 0; i < 40; i++) await clientClaim(game, `p${i}`, await claimable(game, `p${i}`));
    await eventually(() => expect(receiver.received).toHaveLength(80));
  });

  it("a delivery waiting for a slot goes to the endpoint's new URL when the endpoint changes meanwhile", async () => {
    const game = await newGame();
    const { receiver: before, endpoint } = await receiverEndpoint(game);
    before.behave(() => "hang");
    const after = await startReceiver();
    receivers.push(after);
    after.secret = before.secret;
    const worker = startWorker({ timeoutMs: 60_000, perEndpoint: 1, concurrency: 8 });
    following.push(worker.follow(t.app.offers.engine, t.app.offers.webhooks));
    for (let i = 0; i < 2; i++) await clientClaim(game, `p${i}`, await claimable(game, `p${i}`));
    await eventually(() => expect(before.received).toHaveLength(1));
    await heldAll(game.gameId, 2);
    const moved = await t.inject({ method: "PATCH", url: `/v1/webhooks/endpoints/${endpoint.endpointId}`, headers: game.headers, payload: { url: after.url } });
    expect(moved.statusCode, moved.body).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    before.release();
    await eventually(() => expect(after.received).toHaveLength(1));
    expect(before.received, "the old URL got only the attempt already in flight").toHaveLength(1);
    expect(after.received[0]!.verified).not.toBeNull();
  });

  it("stopping gives the deliveries it holds back: another worker sends them at once", async () => {
    const game = await newGame();
    const { receiver } = await receiverEndpoint(game);
    receiver.behave(({ n }) => (n < 2 ? "hang" : 200));
    // Leased for 60 s: only a give-back makes them due now.
    const first = startWorker({ timeoutMs: 60_000, perEndpoint: 2, concurrency: 8, leaseMs: 60_000 });
    for (let i = 0; i < 4; i++) await clientClaim(game, `p${i}`, await claimable(game, `p${i}`));
    await eventually(() => expect(receiver.received).toHaveLength(2));
    await first.stop();
    startWorker({ timeoutMs: 60_000 });
    await eventually(() => expect(new Set(receiver.received.map((r) => r.id)).size).toBe(4));
  });

  it("gives back a waiting delivery whose lease is too short for an attempt; a round leases it again", async () => {
    const game = await newGame();
    const { receiver } = await receiverEndpoint(game);
    receiver.behave(({ n }) => (n < 1 ? "hang" : 200));
    let skew = 0;
    // Leases of 5 s, renewed every 1.67 s; a waiting delivery starts only with 1.67 s left. The hanging attempt must
    // not time out by itself before the clock jumps, however slow the machine: hence 5 s, not less.
    const worker = startWorker({ timeoutMs: 5_000, pollMs: 60_000, perEndpoint: 1, concurrency: 8, clock: { now: () => new Date(Date.now() + skew) } });
    following.push(worker.follow(t.app.offers.engine, t.app.offers.webhooks));
    for (let i = 0; i < 2; i++) await clientClaim(game, `p${i}`, await claimable(game, `p${i}`));
    await eventually(() => expect(receiver.received).toHaveLength(1));
    await heldAll(game.gameId, 2);
    const rounds = vi.spyOn(worker, "round").mockResolvedValue(false);
    // 10.5 s on, by this worker's clock: its lease (renewed, at the latest, 1.67 s of real time ago) has
    // less than a renewal's period left; by the database's, it has not run out.
    skew = 10_500;
    receiver.release();
    const pending = () => t.app.offers.engine.db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.gameId, game.gameId), eq(webhookDeliveries.status, "pending")));
    await eventually(async () => expect((await pending()).map((d) => d.leaseToken)).toEqual([null]));
    expect(receiver.received, "not sent on a lease that could run out during the attempt").toHaveLength(1);
    rounds.mockRestore();
    await worker.round();
    await eventually(() => expect(new Set(receiver.received.map((r) => r.id)).size).toBe(2));
  });

  it("renews the lease of an attempt in flight: another worker does not send it again when the first lease has run out", { timeout: 60_000 }, async () => {
    const game = await newGame();
    const { receiver } = await receiverEndpoint(game);
    receiver.behave(() => "hang");
    // Renewed every second: a busy machine may delay a renewal by up to two before the lease runs out.
    const leaseMs = 3_000;
    startWorker({ leaseMs, timeoutMs: 60_000 });
    startWorker({ leaseMs, timeoutMs: 60_000 });
    await clientClaim(game, "p1", await claimable(game, "p1"));
    await eventually(() => expect(receiver.received).toHaveLength(1));
    const row = async () => (await t.app.offers.engine.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.gameId, game.gameId)))[0]!;
    const first = await row();
    // Renewed by its holder, under the same token, after the first lease had ended (a renewal made then
    // reaches past its end by more than a lease).
    await eventually(async () => {
      const now = await row();
      expect(now.leaseToken).toBe(first.leaseToken);
      expect(now.leasedUntil!.getTime()).toBeGreaterThan(first.leasedUntil!.getTime() + leaseMs);
    }, 20_000);
    expect(receiver.received, "not sent again while its attempt is in flight").toHaveLength(1);
    receiver.release(200);
    await eventually(async () => expect((await row()).status).toBe("delivered"));
    expect(receiver.received).toHaveLength(1);
  });

  it("rotating the secret signs with the new and the previous secret for a while", async () => {
    const game = await newGame();
    const { receiver, endpoint } = await receiverEndpoint(game);
    const oldSecret = receiver.secret!;
    // The worker signs at the real time: the service's clock must say when the previous secret expires in it.
    t.clock.set(Date.now());
    const rotated = await t.post(`/v1/webhooks/endpoints/${endpoint.endpointId}/rotate-secret`, {}, game.headers);
    expect(rotated.status).toBe(200);
    const newSecret = S.WebhookSecretRotated.parse(rotated.body).secret;
    expect(newSecret).not.toBe(oldSecret);
    startWorker();
    await clientClaim(game, "p1", await claimable(game, "p1"));
    await eventually(() => expect(receiver.received).toHaveLength(1));
    // A receiver still on the old secret verifies, and so does one on the new.
    const [r] = receiver.received;
    const headers = { "webhook-id": r!.id, "webhook-timestamp": r!.timestamp, "webhook-signature": r!.signature };
    expect(new Webhook(oldSecret).verify(r!.body, headers)).toMatchObject({ type: "reward.granted" });
    expect(new Webhook(newSecret).verify(r!.body, headers)).toMatchObject({ type: "reward.granted" });
    expect(r!.signature.split(" ")).toHaveLength(2);
  });

  // Thirty players made claimable one by one: a minute and more on a machine that also runs the browser journeys.
  it("two workers sharing the database deliver each event once", { timeout: 120_000 }, async () => {
    const game = await newGame();
    const { receiver } = await receiverEndpoint(game);
    // Leases long enough (renewed every 5 s) that a busy test machine never lets one run out: the normal case.
    startWorker({ concurrency: 4, timeoutMs: 5_000, leaseMs: 15_000 });
    startWorker({ concurrency: 4, timeoutMs: 5_000, leaseMs: 15_000 });
    const claims = 30;
    for (let i = 0; i < claims; i++) await clientClaim(game, `p${i}`, await claimable(game, `p${i}`));
    await eventually(() => expect(new Set(receiver.received.map((r) => r.id)).size).toBe(claims), 60_000);
    await Promise.all(workers.map((w) => w.round()));
    await Promise.all(workers.map((w) => w.idle()));
    expect(receiver.received.map((r) => r.id).sort(), "each event once").toEqual([...new Set(receiver.received.map((r) => r.id))].sort());
    expect(receiver.received).toHaveLength(claims);
    expect(new Set((await feed(game)).map((e) => e.id))).toEqual(new Set(receiver.received.map((r) => r.id)));
  });
});
