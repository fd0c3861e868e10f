/**
 * The delivery table as a queue shared by every instance:
 * - fan-out: reward events past a shared cursor, in commit order (./feed), become one delivery per
 *   enabled endpoint of their game that takes their type; one instance at a time holds the cursor
 *   (its row is taken FOR UPDATE SKIP LOCKED), and a unique (endpoint, message) makes a re-run add nothing;
 * - lease: due deliveries are taken FOR UPDATE SKIP LOCKED and given a lease token and time, so two
 *   instances never take the same one; a lease that runs out (the instance died) makes it due again;
 * - complete: the outcome of an attempt is written only by the holder of the lease, with the attempt's log row;
 * - replay, the delivery log and the lag figures.
 */
import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import { fromDriverRow, rowsOf } from "../../db";
import type { OffersDatabase } from "../db";
import { rewardEvents, settings, webhookDeliveries, webhookEndpoints } from "../db/schema";
import { OffersError } from "../errors";
import type { DeliveryStats, WebhookDelivery, WebhookDeliveryPage, WebhookDeliveryQuery, WebhookReplayRequest } from "../contract";
import { toRewardGrantedEvent, type RewardEventRow } from "./events";
import { nextRetryDelay, type RetryPolicy } from "./schedule";
import type { AttemptResult } from "./sender";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const FANOUT_CURSOR = "webhook-fanout-cursor";
const REWARD_GRANTED: RewardEventRow["type"] = "reward.granted";

/**
 * Makes the statement's own transaction commit without waiting for its WAL flush. Only for the
 * worker's bookkeeping: a crash can lose the last moments of it, never half of a statement, and a
 * lost fan-out (its cursor move goes with it) is fanned out again, a lost outcome is sent again when
 * its lease ends: at least once either way. Claims, replays and endpoints commit as usual.
 */
const ASYNC_COMMIT = sql`(select set_config('synchronous_commit', 'off', true))`;

/** Creates the fan-out cursor (at the first event) unless it exists. */
export async function ensureFanOutCursor(db: OffersDatabase, now: Date): Promise<void> {
  await db.insert(settings).values({ name: FANOUT_CURSOR, value: "0:0", updatedAt: now }).onConflictDoNothing();
}

/**
 * Turns up to `batch` reward events committed since the last run (in commit order, ./feed) into
 * deliveries, in one statement: the cursor row is taken FOR UPDATE SKIP LOCKED (another instance
 * fanning out now: nothing happens), the deliveries inserted, those the caller has free slots for
 * already leased to it (it sends them at once; the others are due now, for any instance), the cursor
 * moved. Answers how many events it read, how many deliveries it queued, the leased ones with
 * their events and endpoints, and the games that have an enabled endpoint for reward.granted.
 */
export async function fanOut(
  db: OffersDatabase,
  now: Date,
  batch: number,
  lease: { token: string; until: Date; total: number; perEndpoint: number; busy: Map<string, number> },
): Promise<{ events: number; queued: number; leased: LeasedDelivery[]; subscribedGames: string[] }> {
  const at = now.toISOString();
  const until = lease.until.toISOString();
  const busy = JSON.stringify([...lease.busy].map(([endpoint_id, used]) => ({ endpoint_id, used })));
  const [row] = rowsOf<{
    events: string | number;
    queued: string | number;
    leased: Omit<RawLeased, "endpoint">[] | string;
    endpoints: Record<string, Record<string, unknown>> | string;
    subscribed: string[] | string;
  }>(
    await db.execute(sql`
      with cursor as (
        select value from offers_settings where name = ${FANOUT_CURSOR} for update skip locked
      ), position as (
        select split_part(value, ':', 1)::xid8 as xid, split_part(value, ':', 2)::bigint as id from cursor
      ), batch as (
        -- The position as scalar subqueries: their values become keys of the index scan (a join would scan every event).
        select e.* from offers_reward_events e
        where (e.xid, e.id) > ((select xid from position), (select id from position)) and e.xid < pg_snapshot_xmin(pg_current_snapshot())
        order by e.xid, e.id
        limit ${batch}
      ), targets as (
        -- Leased to the caller as far as its free slots go (per endpoint and in all); the rest is due at once, for any instance.
        select b.*, ep.endpoint_id as target,
          row_number() over (partition by ep.endpoint_id order by b.xid, b.id) <= greatest(${lease.perEndpoint}::int - coalesce(u.used, 0), 0)
            and row_number() over (order by b.xid, b.id, ep.endpoint_id) <= ${lease.total}::int as mine
        from batch b
        join offers_webhook_endpoints ep on ep.game_id = b.game_id and ep.enabled and ep.event_types ? b.type
        left join jsonb_to_recordset(${busy}::jsonb) as u(endpoint_id text, used int) on u.endpoint_id = ep.endpoint_id
      ), queued as (
        insert into offers_webhook_deliveries as d
          (endpoint_id, game_id, message_id, event_type, reward_event_id, status, next_attempt_at, lease_token, leased_until, event_at, created_at, updated_at)
        select t.target, t.game_id, t.event_id, t.type, t.id, 'pending',
          case when t.mine then ${until}::timestamptz else ${at}::timestamptz end,
          case when t.mine then ${lease.token} end,
          case when t.mine then ${until}::timestamptz end,
          t.occurred_at, ${at}::timestamptz, ${at}::timestamptz
        from targets t
        on conflict (endpoint_id, message_id) do nothing
        returning to_json(d) as delivery
      ), mine as (
        select delivery from queued where delivery->>'lease_token' = ${lease.token}
      ), last as (
        select xid, id from batch order by xid desc, id desc limit 1
      ), moved as (
        update offers_settings s set value = l.xid::text || ':' || l.id::text, updated_at = ${at}::timestamptz
        from last l where s.name = ${FANOUT_CURSOR}
        returning 1
      )
      select
        ${ASYNC_COMMIT} as async_commit,
        (select count(*) from batch) as events,
        (select count(*) from queued) as queued,
        (select count(*) from moved) as moved,
        -- json, not jsonb: built and sent as text, without a binary form in between. Each endpoint once.
        coalesce((
          select json_agg(json_build_object('delivery', m.delivery, 'event', to_json(b)))
          from mine m join batch b on b.id = (m.delivery->>'reward_event_id')::bigint
        ), '[]'::json) as leased,
        coalesce((
          select json_object_agg(ep.endpoint_id, to_json(ep)) from offers_webhook_endpoints ep
          where ep.endpoint_id in (select m.delivery->>'endpoint_id' from mine m)
        ), '{}'::json) as endpoints,
        -- The games a claim is worth a round for (see DeliveryWorker.granted).
        coalesce((
          select jsonb_agg(distinct ep.game_id) from offers_webhook_endpoints ep
          where ep.enabled and ep.event_types ? ${REWARD_GRANTED}
        ), '[]'::jsonb) as subscribed`),
  );
  const parsed = <T>(value: T | string | undefined, empty: T): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value ?? empty));
  const endpoints = parsed(row?.endpoints, {});
  const leased = parsed(row?.leased, []).map((raw) => ({ ...raw, endpoint: endpoints[raw.delivery.endpoint_id as string] ?? null }));
  const subscribed = parsed(row?.subscribed, []);
  return {
    events: Number(row?.events ?? 0),
    queued: Number(row?.queued ?? 0),
    leased: leased.map(toLeased).sort((a, b) => a.delivery.id - b.delivery.id),
    subscribedGames: subscribed,
  };
}

type RawLeased = { delivery: Record<string, unknown>; event: Record<string, unknown> | null; endpoint: Record<string, unknown> | null };

function toLeased(raw: RawLeased): LeasedDelivery {
  return {
    delivery: fromDriverRow(webhookDeliveries, raw.delivery),
    event: raw.event ? fromDriverRow(rewardEvents, raw.event) : null,
    endpoint: raw.endpoint ? fromDriverRow(webhookEndpoints, raw.endpoint) : null,
  };
}

/** A leased delivery with what sending it needs: its event (null for a test event) and its endpoint (null when deleted meanwhile). */
export interface LeasedDelivery {
  delivery: DeliveryRow;
  event: RewardEventRow | null;
  endpoint: typeof webhookEndpoints.$inferSelect | null;
}

export interface Lease {
  token: string;
  until: Date;
  deliveries: LeasedDelivery[];
}

/**
 * Takes due deliveries of enabled endpoints, in one statement: at most `perEndpoint` of each (fewer
 * for endpoints in `busy`, which maps an endpoint to the slots this instance already uses), at most
 * `total` in all, oldest first, FOR UPDATE SKIP LOCKED. Leased until `now + leaseMs`: then they are
 * due again if not completed. Each comes with its event and its endpoint.
 */
export async function leaseDue(
  db: OffersDatabase,
  now: Date,
  options: { total: number; perEndpoint: number; busy: Map<string, number>; leaseMs: number },
): Promise<Lease> {
  const token = randomUUID();
  const until = new Date(now.getTime() + options.leaseMs);
  const busy = JSON.stringify([...options.busy].map(([endpoint_id, used]) => ({ endpoint_id, used })));
  const nowIso = now.toISOString();
  const result = await db.execute(sql`
    with busy as (
      select * from jsonb_to_recordset(${busy}::jsonb) as b(endpoint_id text, used int)
    ), candidates as (
      select ep.endpoint_id, greatest(${options.perEndpoint}::int - coalesce(b.used, 0), 0) as free
      from offers_webhook_endpoints ep left join busy b on b.endpoint_id = ep.endpoint_id
      where ep.enabled
    ), picked as (
      select d.id, d.next_attempt_at from candidates c
      cross join lateral (
        select id, next_attempt_at from offers_webhook_deliveries d
        where d.endpoint_id = c.endpoint_id and d.status = 'pending' and d.next_attempt_at <= ${nowIso}::timestamptz
        order by d.next_attempt_at, d.id
        limit c.free
        for update skip locked
      ) d
      where c.free > 0
      order by d.next_attempt_at, d.id
      limit ${options.total}
    )
    update offers_webhook_deliveries d
    set lease_token = ${token}, leased_until = ${until.toISOString()}::timestamptz, next_attempt_at = ${until.toISOString()}::timestamptz
    from picked where d.id = picked.id
    returning to_jsonb(d) as delivery,
      (select to_jsonb(e) from offers_reward_events e where e.id = d.reward_event_id) as event,
      (select to_jsonb(ep) from offers_webhook_endpoints ep where ep.endpoint_id = d.endpoint_id) as endpoint`);
  const deliveries = rowsOf<RawLeased>(result).map(toLeased);
  deliveries.sort((a, b) => a.delivery.id - b.delivery.id);
  return { token, until, deliveries };
}

/** What an attempt changed: delivered, a retry at `nextAttemptAt`, or failed for good. */
export interface Outcome {
  status: "delivered" | "pending" | "failed";
  nextAttemptAt: Date | null;
}

export function outcomeOf(result: AttemptResult, triesBefore: number, now: Date, policy: RetryPolicy, random?: () => number): Outcome {
  if (result.ok) return { status: "delivered", nextAttemptAt: null };
  const delay = nextRetryDelay(policy, triesBefore + 1, random);
  if (delay === null) return { status: "failed", nextAttemptAt: null };
  return { status: "pending", nextAttemptAt: new Date(now.getTime() + delay) };
}

/** One finished attempt of a leased delivery. */
export interface CompletedAttempt {
  deliveryId: number;
  token: string;
  attemptedAt: Date;
  result: AttemptResult;
  outcome: Outcome;
}

/** Attempts kept on a delivery row (the oldest are dropped beyond). */
export const ATTEMPTS_KEPT = 50;

/**
 * Records finished attempts, in one statement: each delivery's outcome, with the attempt appended to
 * its log. Only deliveries whose lease is still the given token are written (a lease that ran out
 * and was taken by another instance, or a replay meanwhile, wins). Answers the ids written.
 */
export async function completeAttempts(db: OffersDatabase, attempts: CompletedAttempt[]): Promise<number[]> {
  if (attempts.length === 0) return [];
  const rows = JSON.stringify(
    attempts.map((a) => ({
      id: a.deliveryId,
      token: a.token,
      status: a.outcome.status,
      next_at: a.outcome.nextAttemptAt?.toISOString() ?? null,
      at: a.attemptedAt.toISOString(),
      done: new Date(a.attemptedAt.getTime() + a.result.latencyMs).toISOString(),
      code: a.result.statusCode,
      error: a.result.error,
      latency: a.result.latencyMs,
      entry: { at: a.attemptedAt.toISOString(), statusCode: a.result.statusCode, error: a.result.error, latencyMs: a.result.latencyMs },
    })),
  );
  // The ids once more, as an array the planner can count: the rows are then found by primary key.
  // Joined with the outcomes alone (a hundred rows to the planner), it scanned the delivery table
  // while that held fewer than about 15,000 rows.
  const ids = `{${attempts.map((a) => a.deliveryId).join(",")}}`;
  const answer = await db.execute(sql`
    with outcome as (
      select * from jsonb_to_recordset(${rows}::jsonb)
        as o(id bigint, token text, status text, next_at timestamptz, at timestamptz, done timestamptz, code int, error text, latency int, entry jsonb)
    )
    update offers_webhook_deliveries d set
      status = o.status,
      tries = d.tries + 1,
      attempts = d.attempts + 1,
      next_attempt_at = o.next_at,
      lease_token = null,
      leased_until = null,
      last_attempt_at = o.at,
      last_status_code = o.code,
      last_error = o.error,
      last_latency_ms = o.latency,
      attempt_log = (case when jsonb_array_length(d.attempt_log) >= ${ATTEMPTS_KEPT} then d.attempt_log - 0 else d.attempt_log end) || jsonb_build_array(o.entry),
      delivered_at = case when o.status = 'delivered' then o.done else d.delivered_at end,
      failed_at = case when o.status = 'failed' then o.done else null end,
      updated_at = o.done
    from outcome o
    where d.id = any(${ids}::bigint[]) and d.id = o.id and d.lease_token = o.token
    returning d.id, ${ASYNC_COMMIT} as async_commit`);
  return rowsOf<{ id: string | number }>(answer).map((r) => Number(r.id));
}

/** Gives leased deliveries back at once (an instance stopping): due now, for whichever instance polls first. */
export async function releaseLease(db: OffersDatabase, token: string, ids: number[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(webhookDeliveries)
    .set({ leaseToken: null, leasedUntil: null, nextAttemptAt: now })
    .where(and(eq(webhookDeliveries.leaseToken, token), inArray(webhookDeliveries.id, ids)));
}

/** The JSON body of a delivery: its reward event as the feed shows it, or the message it carries (a test event). */
export function messageBody(delivery: DeliveryRow, event: RewardEventRow | null): string | null {
  if (delivery.rewardEventId !== null) return event ? JSON.stringify(toRewardGrantedEvent(event)) : null;
  return delivery.payload ? JSON.stringify(delivery.payload) : null;
}

/** Sends one delivery again (any status), with the same webhook-id; its schedule starts over. */
export async function replayDelivery(db: OffersDatabase, gameId: string, deliveryId: number, now: Date): Promise<void> {
  const replayed = await db
    .update(webhookDeliveries)
    .set({ status: "pending", tries: 0, nextAttemptAt: now, leaseToken: null, leasedUntil: null, failedAt: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.gameId, gameId), eq(webhookDeliveries.id, deliveryId)))
    .returning({ id: webhookDeliveries.id });
  if (replayed.length === 0) throw new OffersError("webhook-delivery-not-found", String(deliveryId));
}

/** Sends again every failed delivery of the game whose event happened in [from, to) (of one endpoint, if named). */
export async function replayFailed(db: OffersDatabase, gameId: string, request: WebhookReplayRequest, now: Date): Promise<number> {
  const conditions: SQL[] = [
    eq(webhookDeliveries.gameId, gameId),
    eq(webhookDeliveries.status, "failed"),
    sql`${webhookDeliveries.eventAt} >= ${request.from}::timestamptz`,
    sql`${webhookDeliveries.eventAt} < ${request.to}::timestamptz`,
  ];
  if (request.endpointId) conditions.push(eq(webhookDeliveries.endpointId, request.endpointId));
  const replayed = await db
    .update(webhookDeliveries)
    .set({ status: "pending", tries: 0, nextAttemptAt: now, failedAt: null, updatedAt: now })
    .where(and(...conditions))
    .returning({ id: webhookDeliveries.id });
  return replayed.length;
}

/**
 * Deletes up to `limit` deliveries that ended (delivered, or failed after the schedule) before
 * `endedBefore`, oldest first: the delivery log keeps a retention window, not every attempt ever.
 * Pending ones are never deleted, and the reward events stay (they are the ledger the feed pages).
 * Answers how many it deleted.
 */
export async function purgeDeliveries(db: OffersDatabase, endedBefore: Date, limit: number): Promise<number> {
  const cutoff = endedBefore.toISOString();
  const deleted = rowsOf<{ id: string | number }>(
    await db.execute(sql`
      delete from offers_webhook_deliveries where id in (
        select id from offers_webhook_deliveries
        where (status = 'delivered' and delivered_at < ${cutoff}::timestamptz) or (status = 'failed' and failed_at < ${cutoff}::timestamptz)
        order by id
        limit ${limit}
      )
      returning id`),
  );
  return deleted.length;
}

const ATTEMPTS_SHOWN = 20;

/** The delivery log of a game, newest first, each with its last attempts. */
export async function listDeliveries(db: OffersDatabase, gameId: string, query: WebhookDeliveryQuery): Promise<WebhookDeliveryPage> {
  const conditions: SQL[] = [eq(webhookDeliveries.gameId, gameId)];
  if (query.status) conditions.push(eq(webhookDeliveries.status, query.status));
  if (query.endpointId) conditions.push(eq(webhookDeliveries.endpointId, query.endpointId));
  if (query.before) conditions.push(lt(webhookDeliveries.id, query.before));
  const rows = await db
    .select({ d: webhookDeliveries, url: webhookEndpoints.url, playerId: rewardEvents.playerId, rewards: rewardEvents.rewards })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.endpointId, webhookDeliveries.endpointId))
    .leftJoin(rewardEvents, eq(rewardEvents.id, webhookDeliveries.rewardEventId))
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  const deliveries: WebhookDelivery[] = page.map(({ d, url, playerId, rewards }) => ({
    deliveryId: d.id,
    endpointId: d.endpointId,
    url,
    messageId: d.messageId,
    eventType: d.eventType,
    status: d.status,
    playerId: playerId ?? null,
    rewards: rewards ?? null,
    attempts: d.attempts,
    nextAttemptAt: d.status === "pending" ? iso(d.nextAttemptAt) : null,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    lastLatencyMs: d.lastLatencyMs,
    eventAt: d.eventAt.toISOString(),
    deliveredAt: iso(d.deliveredAt),
    failedAt: iso(d.failedAt),
    // Newest first, as the log reads.
    attemptLog: [...d.attemptLog].reverse().slice(0, ATTEMPTS_SHOWN),
  }));
  return { deliveries, nextBefore: rows.length > query.limit ? page.at(-1)!.d.id : null };
}

/**
 * How far behind delivery is, for one game or (null) every game: the oldest event not yet
 * delivered to an enabled endpoint (queued or retrying, or committed and not yet fanned out), and
 * the pending and failed (dead letter) counts.
 */
export async function deliveryStats(db: OffersDatabase, gameId: string | null, now: Date): Promise<DeliveryStats> {
  const game = (column: SQL) => (gameId === null ? sql`true` : sql`${column} = ${gameId}`);
  const [row] = rowsOf<{ oldest_pending: string | Date | null; unfanned: string | Date | null; pending: string | number; failed: string | number }>(
    await db.execute(sql`
      select
        (select min(d.event_at) from offers_webhook_deliveries d
          join offers_webhook_endpoints ep on ep.endpoint_id = d.endpoint_id and ep.enabled
          where d.status = 'pending' and ${game(sql`d.game_id`)}) as oldest_pending,
        (select min(e.occurred_at) from offers_reward_events e
          where (e.xid, e.id) > (
              coalesce((select split_part(value, ':', 1) from offers_settings where name = ${FANOUT_CURSOR}), '0')::xid8,
              coalesce((select split_part(value, ':', 2) from offers_settings where name = ${FANOUT_CURSOR}), '0')::bigint)
            and ${game(sql`e.game_id`)}
            and exists (select 1 from offers_webhook_endpoints ep where ep.game_id = e.game_id and ep.enabled and ep.event_types ? e.type)) as unfanned,
        (select count(*) from offers_webhook_deliveries d where d.status = 'pending' and ${game(sql`d.game_id`)}) as pending,
        (select count(*) from offers_webhook_deliveries d where d.status = 'failed' and ${game(sql`d.game_id`)}) as failed`),
  );
  const dates = [row?.oldest_pending, row?.unfanned].filter((v): v is string | Date => v !== null && v !== undefined).map((v) => new Date(v));
  const oldest = dates.length ? new Date(Math.min(...dates.map((d) => d.getTime()))) : null;
  return {
    lagSeconds: oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0,
    oldestUndeliveredAt: oldest?.toISOString() ?? null,
    pending: Number(row?.pending ?? 0),
    failed: Number(row?.failed ?? 0),
  };
}
