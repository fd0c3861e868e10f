// POST /api/components/:name/config/bulk {updates: [{environment, values}], view?} (operator)
// All or nothing: every update is validated first (422 names each problem, nothing written), then one
// commit (persistent) or one transaction (current) carries them all.
import { ConfigBulkRequest, ConfigWriteResult } from "@/lib/portal/contracts/gitops";
import { writeConfig } from "@/lib/portal/gitops/environment-config";
import { componentParams, GITOPS_FAILURES, json, route } from "@/lib/portal/http";
import { auditContextOf } from "@/lib/portal/audit";

export const dynamic = "force-dynamic";

export const POST = route({
  doc: { responses: { 200: { description: "Committed in one commit (or set live in one transaction)", schema: ConfigWriteResult } }, errors: ["not-found", "invalid-config", ...GITOPS_FAILURES] },
  role: "operator",
  params: componentParams,
  body: ConfigBulkRequest,
  handler: async ({ request, user, params: { name }, body, services }) => {
    const result = await writeConfig(await services.gitops(), name, body.updates, {
      view: body.view ?? "persistent",
      user: { id: user.id, name: user.name, email: user.email },
      direct: true,
      audit: auditContextOf(request, user),
    });
    return json(result);
  },
});
