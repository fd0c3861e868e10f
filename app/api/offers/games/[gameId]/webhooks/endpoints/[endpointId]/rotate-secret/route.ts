// POST /api/offers/games/:gameId/webhooks/endpoints/:endpointId/rotate-secret — a new signing secret, shown once (live ops, audited).
import { WebhookSecretRotated } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { rotateSecret } from "@/lib/portal/webhooks";
import { EndpointParams } from "../../../../../../params";

export const POST = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "The new secret, shown once", schema: WebhookSecretRotated } }, errors: ["webhook-endpoint-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: "liveops",
  params: EndpointParams,
  handler: async ({ request, user, params, services }) => json(await rotateSecret(services, request, user, params.gameId, params.endpointId)),
});
