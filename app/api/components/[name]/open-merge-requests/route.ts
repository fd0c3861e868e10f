// GET /api/components/:name/open-merge-requests → {name, repository, mergeRequests: [...{source: "component"|"config"}], errors}
import { authorize } from "@/lib/portal/guard";
import { json, nameFrom } from "@/lib/catalog/http";
import { getGitOps } from "@/lib/portal/gitops/service";
import { openMergeRequests } from "@/lib/portal/gitops/merge-requests";
import { errorResponse } from "@/lib/portal/gitops/http";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ name: string }> }) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const name = nameFrom((await context.params).name);
  if (!name.ok) return name.response;
  try {
    return json(await openMergeRequests(await getGitOps(), name.name));
  } catch (e) {
    return errorResponse(e);
  }
}
