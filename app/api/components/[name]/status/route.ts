// GET /api/components/:name/status — shape documented in lib/catalog/status.ts (componentStatusSchema).
import { componentStatus, componentStatusSchema } from "@/lib/catalog/status";
import { componentNotFound, componentParams, json, route, SOURCE_CONTROL_FAILURES } from "@/lib/portal/http";
import { gitopsStatusExtra } from "@/lib/portal/gitops/status";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "Per environment: namespace and deployed version; open merge requests", schema: componentStatusSchema } }, errors: ["not-found", ...SOURCE_CONTROL_FAILURES] },
  params: componentParams,
  handler: async ({ params: { name }, services }) => {
    const entry = (await services.catalog()).get(name);
    if (!entry) throw componentNotFound(name);
    // Deployed versions per environment and open merge requests. When GitOps cannot answer (e.g.
    // source control is down), the catalog's status still answers, without those.
    const extra = await services
      .gitops()
      .then((g) => gitopsStatusExtra(g, entry.name))
      .catch((e: unknown) => {
      console.error(`[portal] status of ${entry.name}: gitops: ${(e as Error).message}`);
      return {};
    });
    return json(componentStatus(entry, extra));
  },
});
