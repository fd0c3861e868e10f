// GET /api/components/:name/status — shape documented in lib/catalog/status.ts (componentStatusSchema).
import { getCatalog } from "@/lib/portal/services";
import { componentStatus } from "@/lib/catalog/status";
import { componentNotFound, componentParams, json, route } from "@/lib/portal/http";
import { gitopsStatusExtra } from "@/lib/portal/gitops/service";

export const dynamic = "force-dynamic";

export const GET = route({
  params: componentParams,
  handler: async ({ params: { name } }) => {
    const entry = (await getCatalog()).get(name);
    if (!entry) throw componentNotFound(name);
    // Deployed versions per environment and open merge requests. When GitOps cannot answer (e.g.
    // source control is down), the catalog's status still answers, without those.
    const extra = await gitopsStatusExtra(entry.name).catch((e: unknown) => {
      console.error(`[portal] status of ${entry.name}: gitops: ${(e as Error).message}`);
      return {};
    });
    return json(componentStatus(entry, extra));
  },
});
