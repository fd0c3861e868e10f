// POST /api/cache/refresh (operator) — pulls the config repository (when it has a remote) and re-reads
// every record; ?name=<component> re-reads that record's file only. Answers counts and errors.
import { authorize } from "@/lib/portal/guard";
import { getCatalog } from "@/lib/catalog/service";
import { json, nameFrom, problem } from "@/lib/catalog/http";
import { auditCacheRefresh } from "@/lib/portal/audit-log";

export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  const auth = await authorize(request, "operator");
  if (!auth.ok) return auth.response;
  const catalog = await getCatalog();
  const raw = new URL(request.url).searchParams.get("name");
  if (raw !== null) {
    const name = nameFrom(raw);
    if (!name.ok) return name.response;
    const one = await catalog.refreshOne(name.name);
    if (!one) return problem(404, `no component named "${name.name}"`);
    await auditCacheRefresh(request, auth.user, { name: name.name, components: catalog.size, errorCount: catalog.errors.length });
    return json({ ...one, components: catalog.size, errorCount: catalog.errors.length });
  }
  const summary = await catalog.refresh({ pull: true });
  await auditCacheRefresh(request, auth.user, { components: summary.components, errorCount: summary.errors.length, pull: summary.pull });
  return json({ ...summary, errorCount: summary.errors.length });
}
