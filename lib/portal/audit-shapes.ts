/**
 * The audit log's shapes, client-safe (zod only): the audit page and the history panel use them too.
 * The log itself is lib/portal/audit-store.ts.
 */
import { z } from "zod";

export const AUDIT_ACTIONS = [
  "component.update",
  "favorite.add",
  "favorite.remove",
  "cache.refresh",
  "config.write",
  "release.create",
  "import.components",
  "order.create",
  "order.approve",
  "order.reject",
  "merge-request.approve",
  "merge-request.merge",
  "merge-request.close",
  "merge-request.propose",
  "token.create",
  "token.revoke",
  "offer-definition.create",
  "offer-definition.update",
  "offer-definition.activate",
  "offer-definition.pause",
  "offer-definition.archive",
  "offer-definition.restore",
  "webhook.create",
  "webhook.update",
  "webhook.delete",
  "webhook.rotate-secret",
  "webhook.test",
  "webhook.replay",
  "support-grant.request",
  "support-grant.approve",
  "support-grant.reject",
  "support-thresholds.update",
  "support-offer.expire",
  "support-offer.revoke",
  "support-offer.extend",
  "support-offer.make-claimable",
  "support-offer.reoffer",
  "support-deliveries.resend",
  "bulk-compensation.request",
  "bulk-compensation.approve",
  "bulk-compensation.reject",
  "bulk-compensation.cancel",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = ["component", "order", "token", "catalog", "import", "merge-request", "offer-definition", "webhook", "support-grant", "support-thresholds", "offer-instance", "player", "bulk-compensation"] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export interface AuditActor {
  id: string;
  name: string;
}

export interface AuditInput {
  actor: AuditActor;
  action: AuditAction;
  targetType: AuditTargetType;
  target: string;
  /** The component the change concerns, when there is one. */
  component?: string | null;
  summary: string;
  before?: unknown;
  after?: unknown;
  requestId: string;
  /** Defaults to now. */
  at?: Date;
}

/** One entry as the API answers it. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string().describe("ISO time"),
  actor: z.string(),
  actorName: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  targetType: z.enum(AUDIT_TARGET_TYPES),
  target: z.string(),
  component: z.string().nullable(),
  summary: z.string(),
  // Any JSON, null when there is none (unknown already admits null).
  before: z.unknown(),
  after: z.unknown(),
  requestId: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Filters of GET /api/audit (query string). */
export const auditFilterSchema = z.strictObject({
  actor: z.string().trim().min(1).max(200).optional(),
  /** One action or several, comma-separated; "order" (a prefix without a dot) means every order.* action. */
  action: z.string().trim().min(1).max(500).optional(),
  targetType: z.enum(AUDIT_TARGET_TYPES, { error: `targetType must be one of ${AUDIT_TARGET_TYPES.join(", ")}` }).optional(),
  target: z.string().trim().min(1).max(200).optional(),
  component: z.string().trim().min(1).max(200).optional(),
  requestId: z.string().trim().min(1).max(200).optional(),
  from: z.iso.datetime({ offset: true, error: "from must be an ISO date-time" }).optional(),
  to: z.iso.datetime({ offset: true, error: "to must be an ISO date-time" }).optional(),
  /** Entries older than this id (the previous page's nextBefore). */
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditFilter = z.input<typeof auditFilterSchema>;

export interface AuditPage {
  entries: AuditEntry[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: number | null;
}
