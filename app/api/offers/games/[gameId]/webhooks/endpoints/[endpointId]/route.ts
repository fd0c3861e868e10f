// PATCH /api/offers/games/:gameId/webhooks/endpoints/:endpointId — enable, disable or change an endpoint (live ops, audited).
import { WebhookEndpoint, WebhookEndpointPatch } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { changeEndpoint } from "@/lib/portal/webhooks";
import { EndpointParams } from "../../../../../params";

export const PATCH = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "The endpoint", schema: WebhookEndpoint } }, errors: ["webhook-endpoint-not-found", "webhook-url-not-allowed", ...OFFERS_ADMIN_FAILURES] },
  role: "liveops",
  params: EndpointParams,
  body: WebhookEndpointPatch,
  handler: async ({ request, user, params, body, services }) => json(await changeEndpoint(services, request, user, params.gameId, params.endpointId, body)),
});
