// POST /api/offers/games/:gameId/webhooks/endpoints — add an endpoint; the answer shows its signing secret once (live ops, audited).
import { WebhookEndpointCreated, WebhookEndpointInput } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { addEndpoint } from "@/lib/portal/webhooks";
import { GameParams } from "../../../../params";

export const POST = route({
  offersEnvironment: true,
  doc: {
    responses: { 201: { description: "The endpoint with its signing secret, shown once", schema: WebhookEndpointCreated } },
    errors: ["game-not-found", "webhook-url-not-allowed", "too-many-webhook-endpoints", ...OFFERS_ADMIN_FAILURES],
  },
  role: "liveops",
  params: GameParams,
  body: WebhookEndpointInput,
  handler: async ({ request, user, params, body, services }) => json(await addEndpoint(services, auditContextOf(request, user), params.gameId, body), { status: 201 }),
});
