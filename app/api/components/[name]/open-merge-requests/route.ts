// GET /api/components/:name/open-merge-requests → {name, repository, mergeRequests: [...{source: "component"|"config"}], errors}
import { ComponentMergeRequests } from "@/lib/portal/contracts/gitops";
import { openMergeRequests } from "@/lib/portal/gitops/merge-requests";
import { componentParams, json, route, SOURCE_CONTROL_FAILURES } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "Open merge requests of the component's repository and of its config", schema: ComponentMergeRequests } }, errors: ["not-found", ...SOURCE_CONTROL_FAILURES] },
  params: componentParams,
  handler: async ({ params: { name }, services }) => json(await openMergeRequests(await services.gitops(), name)),
});
