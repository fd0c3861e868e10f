// POST /api/cache/refresh (operator) — pulls the config repository (when it has a remote) and re-reads
// every record; ?name=<component> re-reads that record's file only. Answers counts, errors and what
// changed (`changes` for the whole catalog, `changed` for one record) so the UI can say it in a sentence.
import { RefreshAnswer } from "@/lib/portal/contracts/portal";
import { z } from "zod";
import { auditContextOf } from "@/lib/portal/audit";
import { refreshCatalog, refreshComponent } from "@/lib/portal/catalog-refresh";
import { componentName, componentNotFound, json, route, SOURCE_CONTROL_FAILURES } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const POST = route({
  doc: { responses: { 200: { description: "What the refresh read and changed (one record with ?name=)", schema: RefreshAnswer } }, errors: ["not-found", ...SOURCE_CONTROL_FAILURES] },
  role: "operator",
  query: z.object({ name: componentName.optional() }),
  handler: async ({ request, user, query: { name }, services }) => {
    const catalog = await services.catalog();
    const deps = { catalog, db: () => services.db() };
    if (name !== undefined) {
      const one = await refreshComponent(deps, auditContextOf(request, user), name);
      if (!one) throw componentNotFound(name);
      return json({ ...one, components: catalog.size, errorCount: catalog.errors.length });
    }
    const summary = await refreshCatalog(deps, auditContextOf(request, user));
    return json({ ...summary, errorCount: summary.errors.length });
  },
});
