// GET /api/options — the values forms need: kinds, environments, platforms, dependency flags, library
// models, and the owners, groups, registries, publish strategies and visibilities in use.
import { authorize } from "@/lib/portal/guard";
import { getCatalog } from "@/lib/catalog/service";
import { json } from "@/lib/catalog/http";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  return json((await getCatalog()).options());
}
