/** The offers database's tables of incident compensation in bulk (re-exported by ./schema, which drizzle-kit reads). */
import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { AudienceRule, BulkJobStatus, BulkPreview, Reward } from "../contract";
import { games } from "./schema";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * Incident compensation jobs: one reward to many players, always approved by a second person
 * (never the requester; decisions are conditional updates of `status`, like support grants). The
 * players are resolved when the job is asked for (items below), so what the approver reads in the
 * preview is exactly who is granted.
 */
/** How many items of a job ended in each outcome. */
export type BulkItemCounts = Record<"pending" | "granted" | "cancelled" | "unknown", number>;

export const bulkCompensations = pgTable(
  "offers_bulk_compensations",
  {
    jobId: text("job_id").primaryKey(),
    gameId: text("game_id")
      .notNull()
      .references(() => games.gameId, { onDelete: "cascade" }),
    source: text("source").$type<"list" | "audience">().notNull(),
    audience: jsonb("audience").$type<AudienceRule>(),
    reward: jsonb("reward").$type<Reward>().notNull(),
    reason: text("reason").notNull(),
    requestedBy: text("requested_by").notNull(),
    status: text("status").$type<BulkJobStatus>().notNull(),
    /** The preview as computed when the job was asked for (counts and samples of what is not granted). */
    preview: jsonb("preview").$type<BulkPreview>().notNull(),
    decidedBy: text("decided_by"),
    decisionReason: text("decision_reason"),
    cancelledBy: text("cancelled_by"),
    cancelReason: text("cancel_reason"),
    idempotencyKey: text("idempotency_key"),
    fingerprint: text("fingerprint").notNull(),
    createdAt: ts("created_at").notNull(),
    decidedAt: ts("decided_at"),
    expiresAt: ts("expires_at"),
    finishedAt: ts("finished_at"),
    updatedAt: ts("updated_at").notNull(),
    /**
     * When the sweep deleted the job's items, OFFERS_BULK_RETENTION_DAYS after it finished; null while
     * they are kept. From then on the job's progress is `itemCounts` and its result is gone.
     */
    itemsDeletedAt: ts("items_deleted_at"),
    /** The items' outcomes counted just before they were deleted. */
    itemCounts: jsonb("item_counts").$type<BulkItemCounts>(),
  },
  (t) => [
    uniqueIndex("offers_bulk_compensations_key_idx").on(t.gameId, t.idempotencyKey),
    index("offers_bulk_compensations_game_idx").on(t.gameId, t.createdAt),
    index("offers_bulk_compensations_running_idx").on(t.createdAt).where(sql`status = 'running'`),
  ],
);

/**
 * One row per player of a job (the primary key makes a player once per job). A runner takes a batch
 * of `pending` rows FOR UPDATE SKIP LOCKED and, in the same transaction, writes each player's
 * ledger row (source id = the item's grant id, unique) and reward.granted event and marks the row
 * `granted`: a crash rolls all of it back, a re-run finds the row granted, so nobody is granted twice.
 */
export const bulkCompensationItems = pgTable(
  "offers_bulk_compensation_items",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => bulkCompensations.jobId, { onDelete: "cascade" }),
    playerId: text("player_id").notNull(),
    /** pending → granted | cancelled; unknown: no such player in this game environment (never granted). */
    outcome: text("outcome").$type<"pending" | "granted" | "cancelled" | "unknown">().notNull(),
    grantId: text("grant_id"),
    grantedAt: ts("granted_at"),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.playerId] }),
    index("offers_bulk_compensation_items_pending_idx").on(t.jobId, t.playerId).where(sql`outcome = 'pending'`),
  ],
);
