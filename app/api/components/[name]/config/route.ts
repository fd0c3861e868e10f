// GET  /api/components/:name/config?view=current|persistent (default persistent) → ConfigAnswer (lib/portal/gitops/environment-config.ts)
// POST /api/components/:name/config {environment, values, view?}
//   persistent: operators and the component's owners commit directly (200 {mode:"commit"}); others open a merge request (202 {mode:"merge_request"})
//   current: operators only (live values; drift until persisted)
import { ConfigAnswer, ConfigRequest, ConfigView, ConfigWriteResult } from "@/lib/portal/contracts/gitops";
import { z } from "zod";
import { getConfig, writeConfig } from "@/lib/portal/gitops/environment-config";
import { mayCommitTo } from "@/lib/portal/ownership";
import { componentParams, GITOPS_FAILURES, json, requireRole, route, SOURCE_CONTROL_FAILURES } from "@/lib/portal/http";
import { auditContextOf } from "@/lib/portal/audit";

export const dynamic = "force-dynamic";


export const GET = route({
  doc: { responses: { 200: { description: "Each environment's values in the view asked for", schema: ConfigAnswer } }, errors: ["not-found", "invalid-config", ...SOURCE_CONTROL_FAILURES] },
  params: componentParams,
  query: z.object({ view: ConfigView.default("persistent") }),
  handler: async ({ params: { name }, query, services }) => json(await getConfig(await services.gitops(), name, query.view)),
});

export const POST = route({
  doc: {
    responses: {
      200: { description: "Committed (mode commit), or live values set (view current)", schema: ConfigWriteResult },
      202: { description: "Proposed as a merge request (mode merge_request)", schema: ConfigWriteResult },
    },
    // forbidden: view current is the operators' alone.
    errors: ["forbidden", "not-found", "invalid-config", ...GITOPS_FAILURES],
  },
  params: componentParams,
  body: ConfigRequest,
  handler: async ({ request, user, params: { name }, body, services }) => {
    const view = body.view ?? "persistent";
    // Live values are the operators' alone; the persistent ones anyone may propose.
    if (view === "current") requireRole(user, "operator");
    const gitops = await services.gitops();
    const result = await writeConfig(gitops, name, [{ environment: body.environment, values: body.values }], {
      view,
      user: { id: user.id, name: user.name, email: user.email },
      direct: mayCommitTo(gitops.catalog, user, name),
      audit: auditContextOf(request, user),
    });
    return json(result, { status: result.mode === "merge_request" ? 202 : 200 });
  },
});
