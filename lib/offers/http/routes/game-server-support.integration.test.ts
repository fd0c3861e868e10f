/**
 * A game server's support acts on its players with its API key, on a real database: a compensation
 * grant (at once whatever the game's four-eyes thresholds, a reward.granted event with source
 * support and the actor `game-server:<clientId>`, signed to the game's webhook), idempotent with
 * Idempotency-Key; and expire, revoke, extend and make claimable an offer instance, each in the
 * player's history with cause support. Repeats answer the current state and write nothing; a refused
 * request changes nothing; another environment's key never reaches the live player.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { eventually, startReceiver, type Receiver } from "@/test-support/offers/delivery";
import { startOffersTestApp, storedStateDigest, type OffersTestContext, type TestGame } from "@/test-support/offers/test-app";
import { MemoryEventBus } from "../../../events";
import { DeliveryWorker } from "../../delivery/worker";
import { createEventStream } from "../../sse";
import * as S from "../../contract";

const ADMIN = "game-server-support-admin-token-0123456789";
const DAY_MS = 24 * 3600 * 1000;
const ACTOR = "game-server:client-a";

describe.each(testDatabaseTargets())("a game server's support acts on %s", (target) => {
  let t: OffersTestContext;
  let receiver: Receiver;
  let worker: DeliveryWorker;
  let players = 0;
  const server = (url: string, body: unknown, headers: Record<string, string> = {}, game?: TestGame) =>
    t.inject({ method: "POST", url: `/v1${url}`, headers: { ...t.apiHeaders(game), ...headers }, payload: body as object });
  const grant = (body: Record<string, unknown>, headers: Record<string, string> = {}, game?: TestGame) => server("/player/rewards/grant", body, headers, game);
  const act = (instanceId: string, action: S.SupportOfferAction, body: Record<string, unknown>, game?: TestGame) => server(`/player/offers/${instanceId}/${action}`, body, {}, game);
  const admin = (method: "GET" | "PUT" | "POST", url: string, payload?: object) =>
    t.inject({ method, url: `/v1/admin/games/game-a${url}`, headers: { authorization: `Bearer ${ADMIN}` }, ...(payload === undefined ? {} : { payload }) });
  const state = async (playerId: string) => S.AdminPlayerState.parse((await admin("GET", `/players/${playerId}`)).json());
  const offerOf = async (playerId: string, instanceId: string) => (await state(playerId)).offers.find((o) => o.instanceId === instanceId)!;
  const supportLedger = async (playerId: string) => (await state(playerId)).ledger.filter((l) => l.sourceKind === "support");
  const feed = async () => S.RewardFeedResponse.parse((await t.inject({ method: "GET", url: "/v1/rewards/events?limit=500", headers: t.apiHeaders() })).json()).events;
  /** Everything stored but what the delivery worker moves meanwhile: a refused request must leave the rest as it was. */
  const digest = () => storedStateDigest(t.database.db, { withoutDeliveryWork: true });

  async function newPlayer(game?: TestGame, playerId = `server-support-p${++players}`): Promise<string> {
    expect((await t.post("/v1/player/snapshot", { playerId, username: playerId }, t.apiHeaders(game))).status).toBe(200);
    return playerId;
  }
  async function assign(playerId: string, offerId: string, game?: TestGame): Promise<S.Offer> {
    const res = await t.post("/v1/player/offers/assign", { playerId, offerId }, t.apiHeaders(game));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return S.Offer.parse(res.body);
  }

  beforeAll(async () => {
    const stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 60_000, staleTimeoutMs: 60_000 });
    t = await startOffersTestApp(target, { eventStream: stream, adminToken: ADMIN });
    for (const game of [t.game, t.testGame]) {
      const api = t.apiHeaders(game);
      expect((await t.inject({ method: "PUT", url: "/v1/currencies/gold", headers: api, payload: { name: "Gold", image: "https://img.example/gold.png" } })).statusCode).toBe(200);
      const coins = { kind: "coins", rewardId: "gold", name: "Gold", amount: 50 };
      for (const offerId of ["alpha", "beta", "gamma", "delta"]) {
        expect((await t.inject({ method: "PUT", url: `/v1/offers/definitions/${offerId}`, headers: api, payload: { name: offerId, rewards: [coins], durationSeconds: 3600 } })).statusCode).toBe(200);
      }
    }
    // Every coin grant of a person waits for a second one; the game's own server is not a person.
    expect((await admin("PUT", "/support-thresholds", { rules: [{ kind: "coins", approvalAbove: "always" }] })).statusCode).toBe(200);
    receiver = await startReceiver();
    const endpoint = await t.post("/v1/webhooks/endpoints", { url: receiver.url }, t.apiHeaders());
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(200);
    receiver.secret = S.WebhookEndpointCreated.parse(endpoint.body).secret;
    worker = new DeliveryWorker({ db: t.app.offers.engine.db, box: t.app.offers.box, addressPolicy: { allowPrivate: true }, timeoutMs: 5_000, pollMs: 20, concurrency: 4, perEndpoint: 2, retry: { delaysMs: [30], jitter: 0 } });
    worker.start();
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await t?.close();
  });

  it("refuses every new route without the game's key and changes nothing", async () => {
    const playerId = await newPlayer();
    const offer = await assign(playerId, "alpha");
    const before = await digest();
    const routes: Array<[string, object]> = [
      ["/player/rewards/grant", { playerId, kind: "coins", rewardId: "gold", amount: 5, reason: "refund" }],
      ...(["expire", "revoke", "make-claimable"] as const).map((action): [string, object] => [`/player/offers/${offer.instanceId}/${action}`, { playerId, reason: "stuck" }]),
      [`/player/offers/${offer.instanceId}/extend`, { playerId, reason: "more time", expiresAt: new Date(t.clock.now().getTime() + DAY_MS).toISOString() }],
    ];
    const credentials: Array<Record<string, string>> = [{}, { "x-client-id": "client-a", "x-api-key": "nope" }, { "x-client-id": "nobody", "x-api-key": t.game.apiKey }, { "x-api-key": t.game.apiKey }];
    for (const [url, body] of routes) {
      for (const headers of credentials) {
        const res = await t.inject({ method: "POST", url: `/v1${url}`, headers, payload: body });
        expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.json()).toBe("invalid-api-key");
      }
    }
    expect(await digest()).toBe(before);
  });

  it("grants at once above the people's threshold: ledger, feed and a signed webhook with source support and the game server as actor", async () => {
    const playerId = await newPlayer();
    // An actor in the body is not the game server's to name: ignored like any unknown field.
    const res = await grant({ playerId, kind: "coins", rewardId: "gold", amount: 5000, reason: "Lost coins in the login outage", actor: "sam@support", approvalRequired: true });
    expect(res.statusCode, res.body).toBe(200);
    const { grant: granted } = S.SupportGrantResponse.parse(res.json());
    expect(granted).toMatchObject({ playerId, kind: "coins", rewardId: "gold", name: "Gold", amount: 5000, status: "granted", approvalRequired: false, requestedBy: ACTOR, decidedBy: null });
    expect(await supportLedger(playerId)).toEqual([expect.objectContaining({ sourceId: granted.grantId, rewards: [expect.objectContaining({ rewardId: "gold", amount: 5000 })] })]);
    // Support sees it among the game's grants, with who asked, and nothing waits for approval.
    const listed = S.SupportGrantList.parse((await admin("GET", `/support-grants?playerId=${playerId}`)).json());
    expect(listed.grants).toEqual([expect.objectContaining({ grantId: granted.grantId, requestedBy: ACTOR, status: "granted" })]);

    const event = await eventually(async () => {
      const found = (await feed()).find((e) => e.data.instanceId === granted.grantId);
      expect(found).toBeDefined();
      return found!;
    });
    expect(event.data).toMatchObject({ kind: "support", playerId, source: "support", actor: ACTOR, reason: "Lost coins in the login outage", rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 5000 }] });
    expect(event.data.approvedBy).toBeUndefined();
    const delivered = await eventually(() => {
      const found = receiver.received.find((r) => r.id === event.id);
      expect(found).toBeDefined();
      return found!;
    });
    const verified = new Webhook(receiver.secret!).verify(delivered.body, { "webhook-id": delivered.id, "webhook-timestamp": delivered.timestamp, "webhook-signature": delivered.signature });
    expect(verified).toEqual(event);
  });

  it("is idempotent with Idempotency-Key, for any of the game's client ids; another request with the key is 422 and changes nothing", async () => {
    const playerId = await newPlayer();
    const body = { playerId, kind: "coins", rewardId: "gold", amount: 20, reason: "Double charge refund" };
    const key = { "idempotency-key": "order-981" };
    const first = await grant(body, key);
    const again = await grant(body, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    // A retry after a key rotation, from the game's other client id, is the same request.
    const rotated = await t.app.offers.games.rotateKey("game-a");
    const viaRotated = await grant(body, key, { gameId: "game-a", clientId: rotated.clientId, apiKey: rotated.apiKey });
    expect(viaRotated.statusCode, viaRotated.body).toBe(200);
    expect(viaRotated.json()).toEqual(first.json());
    await t.app.offers.games.revokeKey("game-a", rotated.clientId);

    const before = await digest();
    for (const other of [{ ...body, amount: 21 }, { ...body, reason: "Another refund" }]) {
      const refused = await grant(other, key);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toEqual({ message: "idempotency-key-reused" });
    }
    expect(await digest()).toBe(before);
    expect(await supportLedger(playerId)).toHaveLength(1);
  });

  it("expires, revokes, extends and makes claimable with cause support and the game server as actor; repeats write nothing; forbidden moves are 409", async () => {
    const playerId = await newPlayer();
    const [first, second, third] = [await assign(playerId, "alpha"), await assign(playerId, "beta"), await assign(playerId, "gamma")];
    const queued = await assign(playerId, "delta");
    expect(queued.status).toBe("inQueue");

    const later = new Date(t.clock.now().getTime() + 2 * DAY_MS).toISOString();
    const extended = await act(first!.instanceId, "extend", { playerId, reason: "Event runs longer", expiresAt: later });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(extended.json()).toMatchObject({ changed: true, offer: { expiresAt: later, status: "surfaced" } });

    const made = await act(first!.instanceId, "make-claimable", { playerId, reason: "Quest completed offline" });
    expect(made.json()).toMatchObject({ changed: true, offer: { status: "claimable" } });
    const expired = await act(second!.instanceId, "expire", { playerId, reason: "Season ended early" });
    expect(expired.json()).toMatchObject({ changed: true, offer: { status: "expired" } });
    // The freed slot goes to the queue at once.
    expect((await offerOf(playerId, queued.instanceId)).status).toBe("surfaced");
    const revoked = await act(first!.instanceId, "revoke", { playerId, reason: "Granted by mistake" });
    expect(revoked.json()).toMatchObject({ changed: true, offer: { status: "expired" } });

    const history = async (instanceId: string) => (await offerOf(playerId, instanceId)).events.filter((e) => e.cause === "support");
    expect(await history(first!.instanceId)).toEqual([
      expect.objectContaining({ type: "extended", actor: ACTOR, reason: "Event runs longer" }),
      expect.objectContaining({ type: "claimable", toStatus: "claimable", actor: ACTOR, reason: "Quest completed offline" }),
      expect.objectContaining({ type: "revoked", fromStatus: "claimable", toStatus: "expired", actor: ACTOR, reason: "Granted by mistake" }),
    ]);
    expect(await history(second!.instanceId)).toEqual([expect.objectContaining({ type: "expired", actor: ACTOR })]);

    const before = await digest();
    const repeats: Array<[string, S.SupportOfferAction, Record<string, unknown>]> = [
      [second!.instanceId, "expire", { playerId, reason: "again" }],
      [first!.instanceId, "revoke", { playerId, reason: "again" }],
    ];
    for (const [instanceId, action, body] of repeats) {
      const res = await act(instanceId, action, body);
      expect(res.statusCode, action).toBe(200);
      expect(res.json(), action).toMatchObject({ changed: false, offer: { status: "expired" } });
    }
    const madeAgain = await act(third!.instanceId, "make-claimable", { playerId, reason: "done" });
    expect(madeAgain.json()).toMatchObject({ changed: true });
    const afterMake = await digest();
    expect((await act(third!.instanceId, "make-claimable", { playerId, reason: "double click" })).json()).toMatchObject({ changed: false });
    expect(await digest()).toBe(afterMake);
    expect(afterMake).not.toBe(before);

    const refused: Array<[string, S.SupportOfferAction, Record<string, unknown>]> = [
      [third!.instanceId, "expire", { playerId, reason: "claimable offers do not expire" }],
      [third!.instanceId, "extend", { playerId, reason: "nothing to extend", expiresAt: later }],
      [first!.instanceId, "make-claimable", { playerId, reason: "it has ended" }],
    ];
    for (const [instanceId, action, body] of refused) {
      const res = await act(instanceId, action, body);
      expect(res.statusCode, action).toBe(409);
      expect(res.json(), action).toEqual({ message: "offer-transition-refused" });
    }
    expect(await digest()).toBe(afterMake);
  });

  it("an instance of another player is 404 offer-not-found; an unknown player 404 player-not-found; bad input 400; nothing changes", async () => {
    const playerId = await newPlayer();
    const other = await newPlayer();
    const offer = await assign(other, "alpha");
    const soon = new Date(t.clock.now().getTime() + DAY_MS).toISOString();
    const ok = { playerId, kind: "coins", rewardId: "gold", amount: 10, reason: "Refund" };
    const before = await digest();
    const cases: Array<[string, string, Record<string, unknown>, number, string]> = [
      ["another player's instance", `/player/offers/${offer.instanceId}/expire`, { playerId, reason: "stuck" }, 404, "offer-not-found"],
      ["another player's instance, extend", `/player/offers/${offer.instanceId}/extend`, { playerId, reason: "stuck", expiresAt: soon }, 404, "offer-not-found"],
      ["no such instance", "/player/offers/no-such-instance/revoke", { playerId, reason: "stuck" }, 404, "offer-not-found"],
      ["unknown player", `/player/offers/${offer.instanceId}/expire`, { playerId: "nobody-here", reason: "stuck" }, 404, "player-not-found"],
      ["grant to an unknown player", "/player/rewards/grant", { ...ok, playerId: "nobody-here" }, 404, "player-not-found"],
      ["no reason", `/player/offers/${offer.instanceId}/expire`, { playerId: other }, 400, "invalid-request"],
      ["blank reason", `/player/offers/${offer.instanceId}/revoke`, { playerId: other, reason: "   " }, 400, "invalid-request"],
      ["NUL in the reason", `/player/offers/${offer.instanceId}/make-claimable`, { playerId: other, reason: "a\u0000b" }, 400, "invalid-request"],
      ["extend to no date", `/player/offers/${offer.instanceId}/extend`, { playerId: other, reason: "more", expiresAt: "tomorrow" }, 400, "invalid-request"],
      ["extend past 30 days", `/player/offers/${offer.instanceId}/extend`, { playerId: other, reason: "more", expiresAt: new Date(t.clock.now().getTime() + 31 * DAY_MS).toISOString() }, 400, "expiry-out-of-range"],
      ["negative amount", "/player/rewards/grant", { ...ok, amount: -5 }, 400, "invalid-request"],
      ["absurd amount", "/player/rewards/grant", { ...ok, amount: 1e12 }, 400, "invalid-request"],
      ["fractional amount", "/player/rewards/grant", { ...ok, amount: 2.5 }, 400, "invalid-request"],
      ["grant without a reason", "/player/rewards/grant", { ...ok, reason: undefined }, 400, "invalid-request"],
      ["over-long reason", "/player/rewards/grant", { ...ok, reason: "x".repeat(501) }, 400, "invalid-request"],
      ["unknown reward", "/player/rewards/grant", { ...ok, rewardId: "diamonds" }, 400, "unknown-reward"],
      ["bad player id", "/player/rewards/grant", { ...ok, playerId: "a b" }, 400, "invalid-request"],
    ];
    for (const [name, url, body, status, code] of cases) {
      const res = await server(url, body);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
      expect(res.json().message, name).toBe(code);
    }
    expect((await grant(ok, { "idempotency-key": "bad\u0001key" })).statusCode).toBe(400);
    expect(await digest()).toBe(before);
  });

  it("the test environment's key never touches the live player of the same id", async () => {
    const playerId = await newPlayer(t.game, "twin");
    await newPlayer(t.testGame, "twin");
    const live = await assign(playerId, "alpha");
    const liveOnly = await newPlayer(t.game);
    const before = await digest();
    const refused: Array<[string, Record<string, unknown>, string]> = [
      ...(["expire", "revoke", "make-claimable"] as const).map((action): [string, Record<string, unknown>, string] => [`/player/offers/${live.instanceId}/${action}`, { playerId, reason: "wrong environment" }, "offer-not-found"]),
      [`/player/offers/${live.instanceId}/extend`, { playerId, reason: "wrong environment", expiresAt: new Date(t.clock.now().getTime() + DAY_MS).toISOString() }, "offer-not-found"],
      ["/player/rewards/grant", { playerId: liveOnly, kind: "coins", rewardId: "gold", amount: 5, reason: "wrong environment" }, "player-not-found"],
    ];
    for (const [url, body, code] of refused) {
      const res = await server(url, body, {}, t.testGame);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ message: code });
    }
    expect(await digest()).toBe(before);

    // The test twin is granted in test: the live twin's ledger and the live feed stay as they were.
    const testGrant = await grant({ playerId: "twin", kind: "coins", rewardId: "gold", amount: 5, reason: "test refund" }, {}, t.testGame);
    expect(testGrant.statusCode, testGrant.body).toBe(200);
    const grantId = S.SupportGrantResponse.parse(testGrant.json()).grant.grantId;
    expect(await supportLedger(playerId)).toEqual([]);
    expect((await feed()).some((e) => e.data.instanceId === grantId)).toBe(false);
    expect((await offerOf(playerId, live.instanceId)).status).toBe("surfaced");
  });

  it("reserves the game-server actor: a person named like one is refused on the admin API", async () => {
    const playerId = await newPlayer();
    const res = await admin("POST", `/players/${playerId}/support-grants`, { kind: "coins", rewardId: "gold", amount: 5, reason: "Refund", actor: "Game-Server:client-a" });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("invalid-request");
  });
});
