// PATCH /api/offers/games/:gameId/webhooks/endpoints/:endpointId — enable, disable or change an endpoint;
// DELETE — delete it with its deliveries (live ops, audited).
import { z } from "zod";
import { WebhookEndpoint, WebhookEndpointPatch } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { changeEndpoint, deleteEndpoint } from "@/lib/portal/webhooks";
import { EndpointParams } from "../../../../../params";

export const PATCH = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "The endpoint", schema: WebhookEndpoint } }, errors: ["webhook-endpoint-not-found", "webhook-url-not-allowed", ...OFFERS_ADMIN_FAILURES] },
  role: "liveops",
  params: EndpointParams,
  body: WebhookEndpointPatch,
  handler: async ({ request, user, params, body, services }) => json(await changeEndpoint(services, request, user, params.gameId, params.endpointId, body)),
});

// Endpoints carry no version: a delete is not conditional (deleting one already gone is webhook-endpoint-not-found).
export const DELETE = route({
  offersEnvironment: true,
  doc: {
    responses: { 200: { description: "Deleted, with its deliveries", schema: z.object({ endpointId: z.string(), deleted: z.literal(true) }) } },
    errors: ["webhook-endpoint-not-found", ...OFFERS_ADMIN_FAILURES],
  },
  role: "liveops",
  params: EndpointParams,
  handler: async ({ request, user, params, services }) => json(await deleteEndpoint(services, request, user, params.gameId, params.endpointId)),
});
