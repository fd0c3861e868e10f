// GET /api/offers/games/:gameId/webhooks/endpoints/:endpointId — one endpoint with its ETag; PATCH — enable,
// disable or change it; DELETE — delete it with its deliveries (live ops, audited). A change or delete needs
// If-Match with the endpoint's ETag: 428 without, 412 with the current ETag when someone changed it since.
import { z } from "zod";
import { WebhookEndpoint, WebhookEndpointPatch } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { changeEndpoint, deleteEndpoint, webhookEndpoint } from "@/lib/portal/webhooks";
import { EndpointIfMatch, EndpointParams } from "../../../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "The endpoint (ETag: the offers service's, also its etag field)", schema: WebhookEndpoint } }, errors: ["webhook-endpoint-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: "liveops",
  params: EndpointParams,
  handler: async ({ request, params, services }) => {
    const endpoint = await webhookEndpoint(services, params.gameId, params.endpointId, request.signal);
    return json(endpoint, { headers: { ETag: endpoint.etag } });
  },
});

export const PATCH = route({
  offersEnvironment: true,
  doc: {
    responses: { 200: { description: "The endpoint (ETag: its new one)", schema: WebhookEndpoint } },
    errors: ["precondition-required", "precondition-failed", "webhook-endpoint-not-found", "webhook-url-not-allowed", ...OFFERS_ADMIN_FAILURES],
  },
  role: "liveops",
  params: EndpointParams,
  headers: EndpointIfMatch,
  body: WebhookEndpointPatch,
  handler: async ({ request, user, params, headers, body, services }) => {
    const updated = await changeEndpoint(services, auditContextOf(request, user), params.gameId, params.endpointId, body, headers["if-match"]);
    return json(updated, { headers: { ETag: updated.etag } });
  },
});

// Deleting one already gone is webhook-endpoint-not-found.
export const DELETE = route({
  offersEnvironment: true,
  doc: {
    responses: { 200: { description: "Deleted, with its deliveries", schema: z.object({ endpointId: z.string(), deleted: z.literal(true) }) } },
    errors: ["precondition-required", "precondition-failed", "webhook-endpoint-not-found", ...OFFERS_ADMIN_FAILURES],
  },
  role: "liveops",
  params: EndpointParams,
  headers: EndpointIfMatch,
  handler: async ({ request, user, params, headers, services }) => json(await deleteEndpoint(services, auditContextOf(request, user), params.gameId, params.endpointId, headers["if-match"])),
});
