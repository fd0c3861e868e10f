// GET /api/audit (admin) ?actor=&action=order|order.approve,…&targetType=&target=&component=&requestId=&from=&to=&before=&limit=
// → {entries: AuditEntry[], nextBefore} newest first (lib/portal/audit.ts: auditEntrySchema documents an entry).
import { authorize } from "@/lib/portal/guard";
import { getPortalDb } from "@/lib/portal/db";
import { json, problem } from "@/lib/catalog/http";
import { auditFilterSchema, listAudit } from "@/lib/portal/audit";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorize(request, "admin");
  if (!auth.ok) return auth.response;
  const filter = auditFilterSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!filter.success) return problem(400, "invalid-request", { issues: filter.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) });
  const { db } = await getPortalDb();
  return json(await listAudit(db, filter.data));
}
