/**
 * The delivery log of a game and what people do with it: the log itself (newest first, each delivery
 * with its last attempts), the lag figures, replays (one delivery, or the failed ones of a time
 * range) and the purge of deliveries that ended before the retention window. The worker's own
 * statements (fan-out, lease, complete, release) are in ./queue.
 */
import { and, count, desc, eq, gt, inArray, lt, sql, type SQL } from "drizzle-orm";
import { rowsOf } from "../../db";
import type { OffersDatabase } from "../db";
import { rewardEvents, webhookDeliveries, webhookEndpoints } from "../db/schema";
import { OffersError } from "../errors";
import type { DeliveryStats, WebhookDelivery, WebhookDeliveryPage, WebhookDeliveryQuery, WebhookReplayRequest } from "../contract";
import { FANOUT_CURSOR } from "./feed";

/**
 * A replay of a delivery this soon after the last replay of it is the same replay repeated (a
 * double-click, a client's retry), not a new one: it sends nothing more.
 */
export const REPLAY_REPEAT_WINDOW_MS = 5_000;

/**
 * Sends one delivery again (any status), with the same webhook-id; its schedule starts over. A second
 * replay within REPLAY_REPEAT_WINDOW_MS of the last one changes nothing and answers as the first did;
 * the window is kept on the row (replayed_at), so it holds across instances, and one conditional update
 * decides it, so concurrent replays make one send.
 */
export async function replayDelivery(db: OffersDatabase, gameId: string, deliveryId: number, now: Date): Promise<void> {
  const replayed = await db
    .update(webhookDeliveries)
    .set(replayedSet(now))
    .where(and(eq(webhookDeliveries.gameId, gameId), eq(webhookDeliveries.id, deliveryId), notJustReplayed(now)))
    .returning({ id: webhookDeliveries.id });
  if (replayed.length > 0) return;
  const [exists] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.gameId, gameId), eq(webhookDeliveries.id, deliveryId)));
  if (!exists) throw new OffersError("webhook-delivery-not-found", String(deliveryId));
}

/** What a replay sets: pending now, its schedule from the start, the replay's time (for the repeat window). */
const replayedSet = (now: Date) =>
  ({ status: "pending", tries: 0, nextAttemptAt: now, leaseToken: null, leasedUntil: null, failedAt: null, replayedAt: now, updatedAt: now }) as const;

/** Not replayed within REPLAY_REPEAT_WINDOW_MS: a replay now is a new one, not the same one repeated. */
function notJustReplayed(now: Date): SQL {
  const repeatUntil = new Date(now.getTime() - REPLAY_REPEAT_WINDOW_MS).toISOString();
  return sql`(${webhookDeliveries.replayedAt} is null or ${webhookDeliveries.replayedAt} <= ${repeatUntil}::timestamptz)`;
}

/**
 * Sends again one player's deliveries of reward events (every one, or `deliveryId` only), under the
 * same repeat window as replayDelivery: a repeat within it sends nothing more. Answers how many of the
 * player's deliveries are queued again by this call or by the replay it repeats; a `deliveryId` that is
 * not this player's is webhook-delivery-not-found.
 */
export async function replayPlayerDeliveries(db: OffersDatabase, gameId: string, playerId: string, now: Date, deliveryId?: number): Promise<number> {
  const playersEvents = db
    .select({ id: rewardEvents.id })
    .from(rewardEvents)
    .where(and(eq(rewardEvents.gameId, gameId), eq(rewardEvents.playerId, playerId)));
  const scope = and(
    eq(webhookDeliveries.gameId, gameId),
    inArray(webhookDeliveries.rewardEventId, playersEvents),
    deliveryId === undefined ? undefined : eq(webhookDeliveries.id, deliveryId),
  );
  await db.update(webhookDeliveries).set(replayedSet(now)).where(and(scope, notJustReplayed(now)));
  const repeatUntil = new Date(now.getTime() - REPLAY_REPEAT_WINDOW_MS);
  const [queued] = await db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(and(scope, gt(webhookDeliveries.replayedAt, repeatUntil)));
  const n = Number(queued?.n ?? 0);
  if (deliveryId !== undefined && n === 0) throw new OffersError("webhook-delivery-not-found", `${deliveryId} is no delivery of ${playerId}`);
  return n;
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
  if (query.playerId) conditions.push(eq(rewardEvents.playerId, query.playerId));
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
