// POST /api/offers/games/:gameId/webhooks/endpoints/:endpointId/test — queue a test event for the endpoint (live ops, audited).
import { WebhookTestSent } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { sendTestEvent } from "@/lib/portal/webhooks";
import { EndpointParams } from "../../../../../../params";

export const POST = route({
  offersEnvironment: true,
  doc: { responses: { 202: { description: "Queued", schema: WebhookTestSent } }, errors: ["webhook-endpoint-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: "liveops",
  params: EndpointParams,
  handler: async ({ request, user, params, services }) => json(await sendTestEvent(services, auditContextOf(request, user), params.gameId, params.endpointId), { status: 202 }),
});
