// GET /api/owners/{owner} → what a user or group owns, the open merge requests on those components, and the app
// orders waiting for a lead (lib/portal/owners.ts). A group's path is sent with its slashes encoded (%2F).
import { OwnerAnswer, OwnerParams } from "@/lib/portal/contracts/owners";
import { json, route, SOURCE_CONTROL_FAILURES } from "@/lib/portal/http";
import { ownerView } from "@/lib/portal/owners";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "The owner's components, the open reviews on them and the app orders to decide", schema: OwnerAnswer } }, errors: ["not-found", ...SOURCE_CONTROL_FAILURES] },
  params: OwnerParams,
  handler: async ({ user, params: { owner }, services }) => {
    const gitops = await services.gitops();
    return json(await ownerView({ ...gitops, portalConfig: services.settings.auth.config }, user, owner));
  },
});
