/**
 * Support grants of a compensation reward, through the admin API on a real database: below the
 * game's four-eyes thresholds granted at once (ledger, feed and a signed webhook, source support);
 * above them pending until a second person approves (never the requester; exactly one decision of
 * concurrent ones) or rejects, or until it expires; idempotent with Idempotency-Key; bad input is a
 * 4xx that changes nothing.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { eventually, startReceiver, type Receiver } from "@/test-support/offers/delivery";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db";
import { MemoryEventBus } from "../events";
import { createEventStream } from "./sse";
import * as S from "./contract";
import { SUPPORT_GRANT_PENDING_MS } from "./engine/four-eyes";
import { DeliveryWorker } from "./delivery/worker";

const ADMIN = "support-admin-token-0123456789";
const THRESHOLDS: S.SupportThresholds = {
  rules: [
    { kind: "coins", approvalAbove: 1000 },
    { kind: "loyalty_currency", approvalAbove: "always" },
  ],
};

describe.each(testDatabaseTargets())("support grants on %s", (target) => {
  let t: OffersTestContext;
  let receiver: Receiver;
  let worker: DeliveryWorker;
  let players = 0;
  const admin = (method: "GET" | "POST" | "PUT", url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.inject({ method, url: `/v1/admin/games/game-a${url}`, headers: { authorization: `Bearer ${ADMIN}`, ...headers }, ...(payload === undefined ? {} : { payload }) });
  const grant = (playerId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => admin("POST", `/players/${playerId}/support-grants`, body, headers);
  const decide = (grantId: string, decision: "approve" | "reject", body: Record<string, unknown>) => admin("POST", `/support-grants/${grantId}/${decision}`, body);
  const state = async (playerId: string) => S.AdminPlayerState.parse((await admin("GET", `/players/${playerId}`)).json());
  const ledger = async (playerId: string) => (await state(playerId)).ledger.filter((l) => l.sourceKind === "support");
  /** The feed's event of a grant: served once its transaction is final (and every earlier one has ended). */
  const eventOf = (grantId: string) =>
    eventually(async () => {
      const event = (await feed()).find((e) => e.data.instanceId === grantId);
      expect(event).toBeDefined();
      return event!;
    });
  const feed = async () => S.RewardFeedResponse.parse((await t.inject({ method: "GET", url: "/v1/rewards/events?limit=500", headers: t.apiHeaders() })).json()).events;

  /**
   * What a support action writes (grants, ledger, outbox, games' thresholds, players), as one digest: a
   * refused request must leave it as it was. (Deliveries are left out: the worker moves them meanwhile.)
   */
  async function supportDigest(): Promise<string> {
    const tables = ["offers_support_grants", "offers_reward_ledger", "offers_reward_events", "offers_games", "offers_players"];
    const parts = tables.map((name) => sql`select ${name} || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as digest from ${sql.identifier(name)} t`);
    const [row] = rowsOf<{ digest: string }>(await t.database.db.execute(sql`select string_agg(digest, ',' order by digest) as digest from (${sql.join(parts, sql` union all `)}) d`));
    return row?.digest ?? "";
  }

  /** A player the game knows (a snapshot pushed), new per test. */
  async function newPlayer(): Promise<string> {
    players += 1;
    const playerId = `support-p${players}`;
    expect((await t.post("/v1/player/snapshot", { playerId, username: `Player ${players}` }, t.apiHeaders())).status).toBe(200);
    return playerId;
  }

  beforeAll(async () => {
    const stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 60_000, staleTimeoutMs: 60_000 });
    t = await startOffersTestApp(target, { eventStream: stream, adminToken: ADMIN });
    const api = t.apiHeaders();
    for (const [id, name] of [["gold", "Gold"], ["gems", "Gems"]]) {
      expect((await t.inject({ method: "PUT", url: `/v1/currencies/${id}`, headers: api, payload: { name, image: `https://img.example/${id}.png` } })).statusCode).toBe(200);
    }
    const sword = { kind: "item", rewardId: "sword", name: "Sword", amount: 1 };
    expect((await t.inject({ method: "PUT", url: "/v1/offers/definitions/armory", headers: api, payload: { name: "Armory", rewards: [sword], durationSeconds: 60 } })).statusCode).toBe(200);
    expect((await admin("PUT", "/support-thresholds", THRESHOLDS)).statusCode).toBe(200);
    receiver = await startReceiver();
    const endpoint = await t.post("/v1/webhooks/endpoints", { url: receiver.url }, api);
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

  it("grants below the threshold at once: ledger, history, feed and a signed webhook with source support, the actor and the reason", async () => {
    const playerId = await newPlayer();
    const res = await grant(playerId, { kind: "coins", rewardId: "gold", amount: 500, reason: "Lost coins in the 3 May outage", actor: "sam@support" });
    expect(res.statusCode, res.body).toBe(200);
    const { grant: granted } = S.SupportGrantResponse.parse(res.json());
    expect(granted).toMatchObject({ playerId, kind: "coins", rewardId: "gold", name: "Gold", amount: 500, status: "granted", approvalRequired: false, requestedBy: "sam@support" });

    const player = await state(playerId);
    expect(player.ledger).toContainEqual(expect.objectContaining({ sourceKind: "support", sourceId: granted.grantId, rewards: [expect.objectContaining({ rewardId: "gold", amount: 500 })] }));
    expect(player.supportGrants.map((g) => g.grantId)).toEqual([granted.grantId]);

    const event = await eventOf(granted.grantId);
    expect(event.data).toMatchObject({ kind: "support", playerId, source: "support", actor: "sam@support", reason: "Lost coins in the 3 May outage", rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 500 }] });
    expect(event.data.approvedBy).toBeUndefined();

    const delivered = await eventually(() => {
      const found = receiver.received.find((r) => r.id === event.id);
      expect(found).toBeDefined();
      return found!;
    });
    // The game server's own check: the body verifies with the endpoint's secret (standardwebhooks).
    const verified = new Webhook(receiver.secret!).verify(delivered.body, { "webhook-id": delivered.id, "webhook-timestamp": delivered.timestamp, "webhook-signature": delivered.signature }) as S.RewardGrantedEvent;
    expect(verified).toEqual(event);
  });

  it("is idempotent with Idempotency-Key: a retry answers the first grant, another request with the key is 422 and changes nothing", async () => {
    const playerId = await newPlayer();
    const body = { kind: "item", rewardId: "sword", amount: 2, reason: "Sword vanished after the patch", actor: "sam@support" };
    const key = { "idempotency-key": "ticket-4711" };
    const first = await grant(playerId, body, key);
    const again = await grant(playerId, body, key);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json().grant).toEqual(first.json().grant);
    expect(first.json().grant.name).toBe("Sword");

    const before = await supportDigest();
    const other = await grant(playerId, { ...body, amount: 3 }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe("idempotency-key-reused");
    expect(await supportDigest()).toBe(before);
    expect(await ledger(playerId)).toHaveLength(1);
  });

  it("above the threshold waits for a second person: never the requester; the approval grants it once, with who approved", async () => {
    const playerId = await newPlayer();
    const res = await grant(playerId, { kind: "coins", rewardId: "gold", amount: 5000, reason: "Double charge refund", actor: "sam@support" });
    const { grant: pending } = S.SupportGrantResponse.parse(res.json());
    expect(pending).toMatchObject({ status: "pending", approvalRequired: true, decidedBy: null });
    expect(await ledger(playerId)).toEqual([]);
    const queue = S.SupportGrantList.parse((await admin("GET", "/support-grants?status=pending")).json());
    expect(queue.grants.map((g) => g.grantId)).toContain(pending.grantId);
    expect(queue.pending).toBeGreaterThanOrEqual(1);

    const before = await supportDigest();
    for (const actor of ["sam@support", " SAM@support "]) {
      const own = await decide(pending.grantId, "approve", { actor });
      expect(own.statusCode).toBe(403);
      expect(own.json().message).toBe("four-eyes-same-person");
    }
    expect((await decide(pending.grantId, "reject", { actor: "sam@support", reason: "changed my mind" })).statusCode).toBe(403);
    expect(await supportDigest()).toBe(before);

    const approved = await decide(pending.grantId, "approve", { actor: "lee@lead", reason: "checked the payment log" });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().grant).toMatchObject({ status: "granted", decidedBy: "lee@lead", decisionReason: "checked the payment log" });
    // A double click answers the same; another person's decision now is refused.
    expect((await decide(pending.grantId, "approve", { actor: "lee@lead" })).statusCode).toBe(200);
    const late = await decide(pending.grantId, "reject", { actor: "kim@lead", reason: "too late" });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe("support-grant-decided");

    expect(await ledger(playerId)).toHaveLength(1);
    const event = await eventOf(pending.grantId);
    expect(event.data).toMatchObject({ source: "support", actor: "sam@support", approvedBy: "lee@lead", reason: "Double charge refund" });
  });

  it("of concurrent approvals by different people exactly one wins, and the reward is granted once", async () => {
    const playerId = await newPlayer();
    const { grant: pending } = S.SupportGrantResponse.parse((await grant(playerId, { kind: "loyalty_currency", rewardId: "gems", amount: 1, reason: "VIP apology", actor: "sam@support" })).json());
    expect(pending.status).toBe("pending");
    const answers = await Promise.all(["a@lead", "b@lead", "c@support", "d@lead"].map((actor) => decide(pending.grantId, "approve", { actor })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(await ledger(playerId)).toHaveLength(1);
    await eventOf(pending.grantId);
    expect((await feed()).filter((e) => e.data.instanceId === pending.grantId)).toHaveLength(1);
  });

  it("a rejection needs a reason and grants nothing", async () => {
    const playerId = await newPlayer();
    const { grant: pending } = S.SupportGrantResponse.parse((await grant(playerId, { kind: "coins", rewardId: "gold", amount: 1001, reason: "Refund", actor: "sam@support" })).json());
    const bare = await decide(pending.grantId, "reject", { actor: "lee@lead" });
    expect(bare.statusCode).toBe(400);
    const rejected = await decide(pending.grantId, "reject", { actor: "lee@lead", reason: "no payment found" });
    expect(rejected.json().grant).toMatchObject({ status: "rejected", decidedBy: "lee@lead", decisionReason: "no payment found" });
    expect((await decide(pending.grantId, "approve", { actor: "kim@lead" })).statusCode).toBe(409);
    expect(await ledger(playerId)).toEqual([]);
  });

  it("a stale request expires: it leaves the queue, cannot be approved, and the sweep stores it expired", async () => {
    const playerId = await newPlayer();
    const { grant: pending } = S.SupportGrantResponse.parse((await grant(playerId, { kind: "coins", rewardId: "gold", amount: 2000, reason: "Refund", actor: "sam@support" })).json());
    t.clock.advance(SUPPORT_GRANT_PENDING_MS);
    try {
      const late = await decide(pending.grantId, "approve", { actor: "lee@lead" });
      expect(late.statusCode).toBe(409);
      expect(late.json().message).toBe("support-grant-expired");
      const queue = S.SupportGrantList.parse((await admin("GET", "/support-grants?status=pending")).json());
      expect(queue.grants.map((g) => g.grantId)).not.toContain(pending.grantId);
      expect((await state(playerId)).supportGrants[0]).toMatchObject({ grantId: pending.grantId, status: "expired" });
      expect(await t.app.offers.engine.expireSupportGrants()).toBeGreaterThanOrEqual(1);
      const expired = S.SupportGrantList.parse((await admin("GET", `/support-grants?status=expired&playerId=${playerId}`)).json());
      expect(expired.grants.map((g) => g.grantId)).toEqual([pending.grantId]);
      expect(await ledger(playerId)).toEqual([]);
    } finally {
      t.clock.advance(-SUPPORT_GRANT_PENDING_MS);
    }
  });

  it("refuses bad input with a clear 4xx and changes nothing", async () => {
    const playerId = await newPlayer();
    const ok = { kind: "coins", rewardId: "gold", amount: 10, reason: "Refund", actor: "sam@support" };
    const before = await supportDigest();
    const cases: Array<[string, Record<string, unknown>, number, string, Record<string, string>?]> = [
      ["negative amount", { ...ok, amount: -5 }, 400, "invalid-request"],
      ["zero amount", { ...ok, amount: 0 }, 400, "invalid-request"],
      ["absurd amount", { ...ok, amount: 1e12 }, 400, "invalid-request"],
      ["fractional amount", { ...ok, amount: 1.5 }, 400, "invalid-request"],
      ["no reason", { ...ok, reason: "   " }, 400, "invalid-request"],
      ["over-long reason", { ...ok, reason: "x".repeat(501) }, 400, "invalid-request"],
      ["NUL in the reason", { ...ok, reason: "a\u0000b" }, 400, "invalid-request"],
      ["unknown key", { ...ok, extra: 1 }, 400, "invalid-request"],
      ["unknown reward", { ...ok, rewardId: "diamonds" }, 400, "unknown-reward"],
      ["item that is a currency", { ...ok, kind: "item" }, 400, "unknown-reward"],
    ];
    for (const [name, body, status, code] of cases) {
      const res = await grant(playerId, body);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
      expect(res.json().message, name).toBe(code);
    }
    const unknown = await grant("nobody-here", ok);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe("player-not-found");
    // The player exists in live only: the test environment has no such player.
    const otherEnvironment = await grant(playerId, ok, { "x-offers-environment": "test" });
    expect(otherEnvironment.statusCode).toBe(404);
    expect((await decide("sg_none", "approve", { actor: "lee@lead" })).statusCode).toBe(404);
    expect((await admin("PUT", "/support-thresholds", { rules: [{ kind: "coins", approvalAbove: -1 }] })).statusCode).toBe(400);
    expect((await admin("PUT", "/support-thresholds", { rules: [{ kind: "coins", approvalAbove: "sometimes" }] })).statusCode).toBe(400);
    expect(await supportDigest()).toBe(before);
    expect(S.SupportThresholds.parse((await admin("GET", "/support-thresholds")).json())).toEqual(THRESHOLDS);
  });
});
