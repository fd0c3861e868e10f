// POST /api/offers/games/:gameId/webhooks/endpoints — add an endpoint; the answer shows its signing secret once (live ops, audited).
import { WebhookEndpointInput } from "@/lib/offers-client/schemas";
import { json, route } from "@/lib/portal/http";
import { addEndpoint } from "@/lib/portal/webhooks";
import { GameParams } from "../../../../params";

export const POST = route({
  offersEnvironment: true,
  role: "liveops",
  params: GameParams,
  body: WebhookEndpointInput,
  handler: async ({ request, user, params, body, services }) => json(await addEndpoint(services, request, user, params.gameId, body), { status: 201 }),
});
