// POST /api/offers/games/:gameId/webhooks/endpoints/:endpointId/test — queue a test event for the endpoint (live ops, audited).
import { json, route } from "@/lib/portal/http";
import { sendTestEvent } from "@/lib/portal/webhooks";
import { EndpointParams } from "../../../../../../params";

export const POST = route({
  offersEnvironment: true,
  role: "liveops",
  params: EndpointParams,
  handler: async ({ request, user, params, services }) => json(await sendTestEvent(services, request, user, params.gameId, params.endpointId), { status: 202 }),
});
