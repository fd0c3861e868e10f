/**
 * The delivery table as a queue shared by every instance:
 * - fan-out: reward events past a shared cursor, in commit order (./feed), become one delivery per
 *   enabled endpoint of their game that takes their type; one instance at a time holds the cursor
 *   (its row is taken FOR UPDATE SKIP LOCKED), and a unique (endpoint, message) makes a re-run add nothing;
 * - lease: due deliveries are taken FOR UPDATE SKIP LOCKED and given a lease token and time, so two
 *   instances never take the same one; a lease that runs out (the instance died) makes it due again;
 * - renew: a lease lasts a few seconds (rules.LEASE_MS) and is renewed while its delivery is held, so
 *   what a dead instance held is due again soon;
 * - complete: the outcome of an attempt is written only by the holder of the lease, with the attempt's log row;
 * - release: an instance that stops gives what it holds back, due at once.
 * The delivery log, its figures, replays and the purge are in ./delivery-log.
 */
import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { fromDriverRow, rowsOf } from "../../db";
import type { OffersDatabase } from "../db";
import { rewardEvents, settings, webhookDeliveries, webhookEndpoints } from "../db/schema";
import type { RewardEventRow } from "./events";
import { FANOUT_CURSOR } from "./feed";
import type { CompletedAttempt, DeliveryRow, LeasedDelivery } from "./rules";

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

/** The lease a fan-out gives what it queues for the caller: its token and end, and the caller's free slots. */
export interface FanOutLease {
  token: string;
  until: Date;
  total: number;
  perEndpoint: number;
  busy: ReadonlyMap<string, number>;
}

/**
 * Turns up to `batch` reward events committed since the last run (in commit order, ./feed) into
 * deliveries, in one statement: the cursor row is taken FOR UPDATE SKIP LOCKED (another instance
 * fanning out now: nothing happens), the deliveries inserted, those the caller has free slots for
 * already leased to it (it sends them at once; the others are due now, for any instance), the cursor
 * moved. Answers how many events it read, whether committed events are still hidden behind an older
 * running transaction, how many deliveries it queued, the leased ones with their events and
 * endpoints, and the games that have an enabled endpoint for reward.granted.
 */
export async function fanOut(
  db: OffersDatabase,
  now: Date,
  batch: number,
  lease: FanOutLease,
): Promise<{ events: number; hidden: boolean; queued: number; leased: LeasedDelivery[]; subscribedGames: string[] }> {
  const [row] = rowsOf<{
    events: string | number;
    hidden: boolean;
    queued: string | number;
    leased: FannedOut[] | string;
    endpoints: Record<string, Record<string, unknown>> | string;
    subscribed: string[] | string;
  }>(
    await db.execute(fanOutStatement(now, batch, lease)),
  );
  const parsed = <T>(value: T | string | undefined, empty: T): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value ?? empty));
  const endpoints = parsed(row?.endpoints, {});
  const decodedEndpoints = new Map<string, LeasedDelivery["endpoint"]>();
  const endpointOf = (id: string) => {
    if (!decodedEndpoints.has(id)) decodedEndpoints.set(id, endpoints[id] ? fromDriverRow(webhookEndpoints, endpoints[id]) : null);
    return decodedEndpoints.get(id)!;
  };
  const leased = parsed(row?.leased, []).map((raw): LeasedDelivery => {
    const event = fromDriverRow(rewardEvents, raw.event);
    return { delivery: newDelivery(Number(raw.id), raw.endpoint_id, event, now, lease), event, endpoint: endpointOf(raw.endpoint_id) };
  });
  return {
    events: Number(row?.events ?? 0),
    hidden: row?.hidden === true,
    queued: Number(row?.queued ?? 0),
    leased: leased.sort((a, b) => a.delivery.id - b.delivery.id),
    subscribedGames: parsed(row?.subscribed, []),
  };
}

/** The fan-out as one statement (see fanOut); apart so that a test can read its plan. */
export function fanOutStatement(now: Date, batch: number, lease: FanOutLease): SQL {
  const at = now.toISOString();
  const until = lease.until.toISOString();
  const busy = JSON.stringify([...lease.busy].map(([endpoint_id, used]) => ({ endpoint_id, used })));
  return sql`
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
        -- What the caller does not know already: the rest of a new delivery's row is built there.
        returning d.id, d.endpoint_id, d.reward_event_id, d.lease_token
      ), mine as (
        select id, endpoint_id, reward_event_id from queued where lease_token = ${lease.token}
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
        -- Committed events the horizon still hides (an older transaction runs): worth another look soon.
        -- The newest event's xid, one probe of the commit index: as a filter, the planner cannot
        -- bound pg_snapshot_xmin() and read the whole outbox on every round.
        coalesce((select e.xid from offers_reward_events e order by e.xid desc, e.id desc limit 1) >= pg_snapshot_xmin(pg_current_snapshot()), false) as hidden,
        (select count(*) from queued) as queued,
        (select count(*) from moved) as moved,
        -- json, not jsonb: built and sent as text, without a binary form in between. Each endpoint once.
        coalesce((
          select json_agg(json_build_object('id', m.id, 'endpoint_id', m.endpoint_id, 'event', to_json(b)))
          from mine m join batch b on b.id = m.reward_event_id
        ), '[]'::json) as leased,
        coalesce((
          select json_object_agg(ep.endpoint_id, to_json(ep)) from offers_webhook_endpoints ep
          where ep.endpoint_id in (select m.endpoint_id from mine m)
        ), '{}'::json) as endpoints,
        -- The games a claim is worth a round for (see DeliveryWorker.granted).
        coalesce((
          select jsonb_agg(distinct ep.game_id) from offers_webhook_endpoints ep
          where ep.enabled and ep.event_types ? ${REWARD_GRANTED}
        ), '[]'::jsonb) as subscribed`;
}

/** A delivery the fan-out leased to the caller, as the statement answers it: its id, endpoint and event. */
type FannedOut = { id: string | number; endpoint_id: string; event: Record<string, unknown> };

/** The row the fan-out inserted (see its insert): built here rather than read back as JSON. */
function newDelivery(id: number, endpointId: string, event: RewardEventRow, now: Date, lease: { token: string; until: Date }): DeliveryRow {
  return {
    id,
    endpointId,
    gameId: event.gameId,
    messageId: event.eventId,
    eventType: event.type,
    rewardEventId: event.id,
    payload: null,
    status: "pending",
    tries: 0,
    attempts: 0,
    nextAttemptAt: lease.until,
    leaseToken: lease.token,
    leasedUntil: lease.until,
    lastAttemptAt: null,
    lastStatusCode: null,
    lastError: null,
    lastLatencyMs: null,
    attemptLog: [],
    eventAt: event.occurredAt,
    createdAt: now,
    deliveredAt: null,
    failedAt: null,
    replayedAt: null,
    updatedAt: now,
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
  options: { total: number; perEndpoint: number; busy: ReadonlyMap<string, number>; leaseMs: number },
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

/**
 * Renews the leases of deliveries held here (in flight or waiting), in one statement: each stays
 * leased until `until` if its lease is still the given token (an outcome written meanwhile, a lease
 * that ran out and was taken elsewhere, or a replay, is left alone). Answers the ids renewed.
 */
export async function renewLeases(db: OffersDatabase, held: Array<{ id: number; token: string }>, until: Date): Promise<number[]> {
  if (held.length === 0) return [];
  const ids = `{${held.map((h) => h.id).join(",")}}`;
  const tokens = `{${held.map((h) => h.token).join(",")}}`;
  const at = until.toISOString();
  const answer = await db.execute(sql`
    update offers_webhook_deliveries d set leased_until = ${at}::timestamptz, next_attempt_at = ${at}::timestamptz
    from unnest(${ids}::bigint[], ${tokens}::text[]) as h(id, token)
    where d.id = any(${ids}::bigint[]) and d.id = h.id and d.lease_token = h.token
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
