// The contract of GET /api/audit: the shapes live with the audit log's (client-safe, zod only).
import { z } from "zod";
import { auditEntrySchema } from "@/lib/portal/audit-shapes";

export { auditEntrySchema as AuditEntry, auditFilterSchema as AuditQuery } from "@/lib/portal/audit-shapes";
export const AuditPage = z.object({ entries: z.array(auditEntrySchema), nextBefore: z.number().int().nullable().describe("Pass as before for the next (older) page; null on the last page") });
export type AuditPage = z.infer<typeof AuditPage>;
