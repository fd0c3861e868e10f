// GET /api/components/:name/status — shape documented in lib/catalog/status.ts (componentStatusSchema).
import { authorize } from "@/lib/portal/guard";
import { getCatalog } from "@/lib/catalog/service";
import { componentStatus } from "@/lib/catalog/status";
import { json, nameFrom, problem } from "@/lib/catalog/http";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ name: string }> }) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const name = nameFrom((await context.params).name);
  if (!name.ok) return name.response;
  const entry = (await getCatalog()).get(name.name);
  if (!entry) return problem(404, `no component named "${name.name}"`);
  return json(componentStatus(entry));
}
