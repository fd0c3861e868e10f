// POST /api/offers/games/:gameId/webhooks/endpoints/:endpointId/rotate-secret — a new signing secret, shown once
// (live ops, audited). If-Match with the endpoint's ETag is required: 428 without, 412 with the current ETag when stale.
import { WebhookSecretRotated } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { rotateSecret } from "@/lib/portal/webhooks";
import { EndpointIfMatch, EndpointParams } from "../../../../../../params";

export const POST = route({
  offersEnvironment: true,
  doc: {
    responses: { 200: { description: "The new secret, shown once (ETag: the endpoint's new one)", schema: WebhookSecretRotated } },
    errors: ["precondition-required", "precondition-failed", "webhook-endpoint-not-found", ...OFFERS_ADMIN_FAILURES],
  },
  role: "liveops",
  params: EndpointParams,
  headers: EndpointIfMatch,
  handler: async ({ request, user, params, headers, services }) => {
    const rotated = await rotateSecret(services, auditContextOf(request, user), params.gameId, params.endpointId, headers["if-match"]);
    return json(rotated, { headers: { ETag: rotated.etag } });
  },
});
