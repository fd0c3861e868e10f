// POST /api/offers/games/:gameId/support-grants/:grantId/reject — reject a pending grant with a reason; support or lead, never the requester (audited).
import { SupportGrantResponse } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { decideGrant } from "@/lib/portal/support-grants";
import { RejectGrantBody, GrantParams } from "@/lib/portal/support-shapes";

export const POST = route({
  offersEnvironment: true,
  doc: {
    responses: { 200: { description: "The grant after the decision", schema: SupportGrantResponse } },
    errors: ["support-grant-not-found", "support-grant-decided", "support-grant-expired", "four-eyes-same-person", ...OFFERS_ADMIN_FAILURES],
  },
  role: ["support", "lead"],
  params: GrantParams,
  body: RejectGrantBody,
  handler: async ({ request, user, params, body, services }) =>
    json({ grant: await decideGrant(services, auditContextOf(request, user), params.gameId, params.grantId, "reject", body.reason) }),
});
