// The audit log: one row per change made through the portal — who, what, on which target,
// a before/after summary, when, and the request id (x-request-id, or generated).
import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** The portal user id (source-control user name). */
    actor: text("actor").notNull(),
    actorName: text("actor_name").notNull(),
    /** e.g. component.update, config.write, release.create, order.approve (see lib/portal/audit-store.ts). */
    action: text("action").notNull(),
    /** component | order | token | catalog | import | merge-request | offer-definition */
    targetType: text("target_type").notNull(),
    target: text("target").notNull(),
    /** The component the change concerns, when there is one (the history panel of a component page). */
    component: text("component"),
    /** One line a person reads. */
    summary: text("summary").notNull(),
    before: jsonb("before").$type<unknown>(),
    after: jsonb("after").$type<unknown>(),
    requestId: text("request_id").notNull(),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at),
    index("audit_log_actor_idx").on(t.actor, t.at),
    index("audit_log_component_idx").on(t.component, t.at),
    index("audit_log_action_idx").on(t.action, t.at),
    index("audit_log_target_idx").on(t.targetType, t.target),
  ],
);

export type AuditRow = typeof auditLog.$inferSelect;
