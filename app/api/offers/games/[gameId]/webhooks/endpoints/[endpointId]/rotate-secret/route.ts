// POST /api/offers/games/:gameId/webhooks/endpoints/:endpointId/rotate-secret — a new signing secret, shown once (live ops, audited).
import { json, route } from "@/lib/portal/http";
import { rotateSecret } from "@/lib/portal/webhooks";
import { EndpointParams } from "../../../../../../params";

export const POST = route({
  offersEnvironment: true,
  role: "liveops",
  params: EndpointParams,
  handler: async ({ request, user, params, services }) => json(await rotateSecret(services, request, user, params.gameId, params.endpointId)),
});
