// App orders: an engineer orders a new component; the order is a merge request in the config
// repository that adds the component record and its resource requests; a lead approves (merge) or rejects
// (close, with a reason). Status moves only by conditional updates (WHERE status = …), so two leads
// deciding at once cannot both win.
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const appOrders = pgTable(
  "app_orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** metadata.name of the ordered component. */
    name: text("name").notNull(),
    displayName: text("display_name").notNull(),
    /** spec.kind */
    kind: text("kind").notNull(),
    /** The whole Component record as ordered (validated with the catalog's schema). */
    component: jsonb("component").$type<Record<string, unknown>>().notNull(),
    /** pending | approving | approved | rejected */
    status: text("status").notNull().default("pending"),
    requester: text("requester").notNull(),
    requesterName: text("requester_name").notNull(),
    /** The config repository's merge request. */
    mergeRequestRepo: text("merge_request_repo"),
    mergeRequestIid: integer("merge_request_iid"),
    mergeRequestUrl: text("merge_request_url"),
    sourceBranch: text("source_branch"),
    mergeCommitSha: text("merge_commit_sha"),
    decidedBy: text("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** Why a lead rejected it (shown to the requester). */
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One open order per name, whatever the number of processes.
    uniqueIndex("app_orders_open_name_uq").on(t.name).where(sql`${t.status} in ('pending', 'approving')`),
    index("app_orders_status_idx").on(t.status, t.createdAt),
    index("app_orders_requester_idx").on(t.requester, t.createdAt),
  ],
);

export type AppOrderRow = typeof appOrders.$inferSelect;
