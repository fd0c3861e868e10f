// GET /api/audit (admin) ?actor=&action=order|order.approve,…&targetType=&target=&component=&requestId=&from=&to=&before=&limit=
// → {entries: AuditEntry[], nextBefore} newest first (lib/portal/audit.ts: auditEntrySchema documents an entry).
import { getPortalDb } from "@/lib/portal/db";
import { auditFilterSchema, listAudit } from "@/lib/portal/audit";
import { json, legacy, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  role: "admin",
  query: { schema: auditFilterSchema, invalid: legacy.dottedIssues },
  handler: async ({ query }) => {
    const { db } = await getPortalDb();
    return json(await listAudit(db, query));
  },
});
