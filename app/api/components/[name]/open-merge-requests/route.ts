// GET /api/components/:name/open-merge-requests → {name, repository, mergeRequests: [...{source: "component"|"config"}], errors}
import { getGitOps } from "@/lib/portal/gitops/service";
import { openMergeRequests } from "@/lib/portal/gitops/merge-requests";
import { componentParams, json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  params: componentParams,
  handler: async ({ params: { name } }) => json(await openMergeRequests(await getGitOps(), name)),
});
