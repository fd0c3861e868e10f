/**
 * The periodic sweep each instance of the offers service runs (every OFFERS_SWEEP_INTERVAL_MS): expiry made
 * visible to players who do not read, spent tokens and old idempotency keys purged, stale support grants
 * and bulk jobs expired, then what outlived its retention deleted. Each delete takes at most
 * PURGE_BATCH rows a sweep, so a first purge of a large log does not hold one long statement; a
 * retention of 0 days keeps everything. The engine's own part (overdue offers) is ./engine/sweep.ts.
 */
import type { OffersDatabase } from "./db";
import { purgeDeliveries } from "./delivery/delivery-log";
import { purgeActivity } from "./engine/activity";
import { deleteEndedBulkItems } from "./engine/bulk-compensation";
import type { OffersServices } from "./http/services";

/** Rows one sweep deletes at most, per kind. */
export const PURGE_BATCH = 10_000;

const DAY_MS = 86_400_000;

/** Days each kind of row is kept (0: for ever). */
export interface Retention {
  /** Deliveries that ended (OFFERS_DELIVERY_RETENTION_DAYS). */
  deliveryDays: number;
  /** Items of bulk jobs that ended (OFFERS_BULK_RETENTION_DAYS). */
  bulkDays: number;
  /** Player activity (OFFERS_ACTIVITY_RETENTION_DAYS). */
  activityDays: number;
}

/** One sweep at `now`. A step that fails stops the sweep; the next one runs it again. */
export async function sweepOnce(offers: Pick<OffersServices, "engine" | "tokens">, db: OffersDatabase, retention: Retention, now: Date): Promise<void> {
  await offers.engine.sweepExpired();
  await offers.tokens.purge();
  await offers.engine.purgeIdempotencyKeys();
  await offers.engine.expireSupportGrants();
  await offers.engine.expireBulkCompensations();
  const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);
  if (retention.deliveryDays > 0) await purgeDeliveries(db, daysAgo(retention.deliveryDays), PURGE_BATCH);
  if (retention.bulkDays > 0) await deleteEndedBulkItems(db, daysAgo(retention.bulkDays), now, PURGE_BATCH);
  if (retention.activityDays > 0) await purgeActivity(db, daysAgo(retention.activityDays), PURGE_BATCH);
}
