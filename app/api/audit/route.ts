// GET /api/audit (admin) ?actor=&action=order|order.approve,…&targetType=&target=&component=&requestId=&from=&to=&before=&limit=
// → {entries: AuditEntry[], nextBefore} newest first (lib/portal/audit-store.ts: auditEntrySchema documents an entry).
import { AuditPage } from "@/lib/portal/contracts/audit";
import { auditFilterSchema, listAudit } from "@/lib/portal/audit-store";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "Entries newest first", schema: AuditPage } } },
  role: "admin",
  query: auditFilterSchema,
  handler: async ({ query, services }) => {
    const db = await services.db();
    return json(await listAudit(db, query));
  },
});
