// POST /api/cache/refresh (operator) — pulls the config repository (when it has a remote) and re-reads
// every record; ?name=<component> re-reads that record's file only. Answers counts, errors and what
// changed (`changes` for the whole catalog, `changed` for one record) so the UI can say it in a sentence.
import { RefreshAnswer } from "@/lib/portal/contracts/portal";
import { z } from "zod";
import { auditCacheRefresh } from "@/lib/portal/audit-recorder";
import { componentName, componentNotFound, json, route, SOURCE_CONTROL_FAILURES } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const POST = route({
  doc: { responses: { 200: { description: "What the refresh read and changed (one record with ?name=)", schema: RefreshAnswer } }, errors: ["not-found", ...SOURCE_CONTROL_FAILURES] },
  role: "operator",
  query: z.object({ name: componentName.optional() }),
  handler: async ({ request, user, query: { name }, services }) => {
    const catalog = await services.catalog();
    if (name !== undefined) {
      const one = await catalog.refreshOne(name);
      if (!one) throw componentNotFound(name);
      await auditCacheRefresh(services, request, user, { name, components: catalog.size, errorCount: catalog.errors.length });
      return json({ ...one, components: catalog.size, errorCount: catalog.errors.length });
    }
    const summary = await catalog.refresh({ pull: true });
    await auditCacheRefresh(services, request, user, { components: summary.components, errorCount: summary.errors.length, pull: summary.pull });
    return json({ ...summary, errorCount: summary.errors.length });
  },
});
