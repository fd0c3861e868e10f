// GET /api/components/:name/status — shape documented in lib/catalog/status.ts (componentStatusSchema).
import { authorize } from "@/lib/portal/guard";
import { getCatalog } from "@/lib/catalog/service";
import { componentStatus } from "@/lib/catalog/status";
import { json, nameFrom, problem } from "@/lib/catalog/http";
import { gitopsStatusExtra } from "@/lib/portal/gitops/service";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ name: string }> }) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const name = nameFrom((await context.params).name);
  if (!name.ok) return name.response;
  const entry = (await getCatalog()).get(name.name);
  if (!entry) return problem(404, `no component named "${name.name}"`);
  // GitOps (issue 6): deployed versions per environment and open merge requests. When GitOps cannot
  // answer (e.g. source control is down), the catalog's status still answers, without those.
  const extra = await gitopsStatusExtra(entry.name).catch((e: unknown) => {
    console.error(`[portal] status of ${entry.name}: gitops: ${(e as Error).message}`);
    return {};
  });
  return json(componentStatus(entry, extra));
}
