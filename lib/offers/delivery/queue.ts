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
import type { OffersDatabase, OffersExecutor } from "../db";
import { rewardEvents, settings, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../db/schema";
import { OffersError } from "../errors";
import type { DeliveryStats, WebhookDelivery, WebhookDeliveryPage, WebhookDeliveryQuery, WebhookReplayRequest } from "../schemas";
import { toRewardGrantedEvent } from "./events";
import { finalEventsAfter, FEED_START, type FeedPosition } from "./feed";
import { nextRetryDelay, type RetryPolicy } from "./schedule";
import type { AttemptResult } from "./sender";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const FANOUT_CURSOR = "webhook-fanout-cursor";

function parsePosition(value: string): FeedPosition {
  const [xid, id] = value.split(":");
  return xid && id ? { xid, id: Number(id) } : FEED_START;
}

/**
 * Turns reward events committed since the last run into deliveries (at most `batch` events).
 * Answers how many events it read; 0 when another instance is fanning out now.
 */
export async function fanOut(db: OffersDatabase, now: Date, batch: number): Promise<number> {
  // The cursor row exists from the first run on; creating it is idempotent.
  await db.insert(settings).values({ name: FANOUT_CURSOR, value: "0:0", updatedAt: now }).onConflictDoNothing();
  return db.transaction(async (tx) => {
    const [cursor] = await tx.select().from(settings).where(eq(settings.name, FANOUT_CURSOR)).for("update", { skipLocked: true });
    if (!cursor) return 0;
    const events = await finalEventsAfter(tx, null, parsePosition(cursor.value), batch);
    if (events.length === 0) return 0;
    await tx.execute(sql`
      insert into offers_webhook_deliveries (endpoint_id, game_id, message_id, event_type, reward_event_id, status, next_attempt_at, event_at, created_at, updated_at)
      select ep.endpoint_id, e.game_id, e.event_id, e.type, e.id, 'pending', ${now.toISOString()}::timestamptz, e.occurred_at, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from offers_reward_events e
      join offers_webhook_endpoints ep on ep.game_id = e.game_id and ep.enabled and ep.event_types ? e.type
      where e.id in (${sql.join(events.map((e) => sql`${e.id}`), sql`, `)})
      on conflict (endpoint_id, message_id) do nothing`);
    const last = events.at(-1)!;
    await tx.update(settings).set({ value: `${last.xid}:${last.id}`, updatedAt: now }).where(eq(settings.name, FANOUT_CURSOR));
    return events.length;
  });
}

export interface Lease {
  token: string;
  until: Date;
  deliveries: DeliveryRow[];
}

/**
 * Takes due deliveries of enabled endpoints: at most `perEndpoint` of each (fewer for endpoints in
 * `busy`, which maps an endpoint to the slots this instance already uses), at most `total` in all,
 * oldest first. Leased until `now + leaseMs`: then they are due again if not completed.
 */
export async function leaseDue(
  db: OffersDatabase,
  now: Date,
  options: { total: number; perEndpoint: number; busy: Map<string, number>; leaseMs: number },
): Promise<Lease> {
  const token = randomUUID();
  const until = new Date(now.getTime() + options.leaseMs);
  const busyIds = [...options.busy.keys()];
  const busyUsed = busyIds.map((id) => options.busy.get(id)!);
  const nowIso = now.toISOString();
  const result = await db.execute(sql`
    with busy as (
      select * from unnest(${toTextArray(busyIds)}::text[], ${toIntArray(busyUsed)}::int[]) as b(endpoint_id, used)
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
    returning d.*`);
  const deliveries = rowsOf<Record<string, unknown>>(result).map((raw) => fromDriverRow(webhookDeliveries, raw));
  deliveries.sort((a, b) => a.id - b.id);
  return { token, until, deliveries };
}

// Arrays as PostgreSQL array literals: both drivers take a text parameter cast to an array type.
function toTextArray(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(",")}}`;
}
function toIntArray(values: number[]): string {
  return `{${values.map((v) => String(Math.trunc(v))).join(",")}}`;
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

/**
 * Records an attempt of a leased delivery: its outcome and its log row, in one statement. Answers
 * false (and writes nothing) when the lease is no longer this caller's (it ran out and another
 * instance took the delivery, or it was replayed meanwhile).
 */
export async function completeAttempt(db: OffersDatabase, delivery: DeliveryRow, token: string, attemptedAt: Date, result: AttemptResult, outcome: Outcome): Promise<boolean> {
  const at = attemptedAt.toISOString();
  const done = new Date(attemptedAt.getTime() + result.latencyMs).toISOString();
  const answer = await db.execute(sql`
    with updated as (
      update offers_webhook_deliveries set
        status = ${outcome.status},
        tries = tries + 1,
        attempts = attempts + 1,
        next_attempt_at = ${outcome.nextAttemptAt?.toISOString() ?? null}::timestamptz,
        lease_token = null,
        leased_until = null,
        last_attempt_at = ${at}::timestamptz,
        last_status_code = ${result.statusCode}::int,
        last_error = ${result.error}::text,
        last_latency_ms = ${result.latencyMs}::int,
        delivered_at = case when ${outcome.status} = 'delivered' then ${done}::timestamptz else delivered_at end,
        failed_at = case when ${outcome.status} = 'failed' then ${done}::timestamptz else null end,
        updated_at = ${done}::timestamptz
      where id = ${delivery.id} and lease_token = ${token}
      returning id
    )
    insert into offers_webhook_attempts (delivery_id, attempted_at, status_code, error, latency_ms)
    select id, ${at}::timestamptz, ${result.statusCode}::int, ${result.error}::text, ${result.latencyMs}::int from updated
    returning delivery_id`);
  return rowsOf(answer).length === 1;
}

/** Gives leased deliveries back at once (an instance stopping): due now, for whichever instance polls first. */
export async function releaseLease(db: OffersDatabase, token: string, ids: number[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(webhookDeliveries)
    .set({ leaseToken: null, leasedUntil: null, nextAttemptAt: now })
    .where(and(eq(webhookDeliveries.leaseToken, token), inArray(webhookDeliveries.id, ids)));
}

/** The body of a delivery: its reward event (as the feed shows it), or the message it carries (a test event). */
export async function messageBodies(db: OffersExecutor, deliveries: DeliveryRow[]): Promise<Map<number, string>> {
  const eventIds = [...new Set(deliveries.map((d) => d.rewardEventId).filter((id): id is number => id !== null))];
  const events = eventIds.length ? await db.select().from(rewardEvents).where(inArray(rewardEvents.id, eventIds)) : [];
  const byId = new Map(events.map((e) => [e.id, JSON.stringify(toRewardGrantedEvent(e))]));
  const bodies = new Map<number, string>();
  for (const d of deliveries) {
    const body = d.rewardEventId !== null ? byId.get(d.rewardEventId) : d.payload ? JSON.stringify(d.payload) : undefined;
    if (body !== undefined) bodies.set(d.id, body);
  }
  return bodies;
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
  const ids = page.map((r) => r.d.id);
  const attempts = ids.length
    ? await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids)).orderBy(desc(webhookAttempts.id))
    : [];
  const byDelivery = new Map<number, typeof attempts>();
  for (const a of attempts) {
    const list = byDelivery.get(a.deliveryId) ?? [];
    if (list.length < ATTEMPTS_SHOWN) list.push(a);
    byDelivery.set(a.deliveryId, list);
  }
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
    attemptLog: (byDelivery.get(d.id) ?? []).map((a) => ({ at: a.attemptedAt.toISOString(), statusCode: a.statusCode, error: a.error, latencyMs: a.latencyMs })),
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
        (select min(e.occurred_at) from offers_reward_events e,
          (select coalesce((select split_part(value, ':', 1) from offers_settings where name = ${FANOUT_CURSOR}), '0')::xid8 as xid,
                  coalesce((select split_part(value, ':', 2) from offers_settings where name = ${FANOUT_CURSOR}), '0')::bigint as id) c
          where (e.xid, e.id) > (c.xid, c.id)
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
