// GET /api/import/owners → {owners: [{path, name, kind}]}
import { authorize } from "@/lib/portal/guard";
import { json } from "@/lib/catalog/http";
import { getGitOps } from "@/lib/portal/gitops/service";
import { listOwners } from "@/lib/portal/gitops/import";
import { errorResponse } from "@/lib/portal/gitops/http";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  try {
    return json({ owners: await listOwners(await getGitOps()) });
  } catch (e) {
    return errorResponse(e);
  }
}
