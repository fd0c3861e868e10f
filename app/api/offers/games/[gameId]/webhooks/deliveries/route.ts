// GET /api/offers/games/:gameId/webhooks/deliveries — the delivery log, newest first (?status, ?endpointId, ?before, ?limit); live ops.
import { WebhookDeliveryQuery } from "@/lib/offers-client/schemas";
import { json, route } from "@/lib/portal/http";
import { deliveryLog } from "@/lib/portal/webhooks";
import { GameParams } from "../../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  role: "liveops",
  params: GameParams,
  query: WebhookDeliveryQuery,
  handler: async ({ request, params, query, services }) => json(await deliveryLog(services, params.gameId, query, request.signal)),
});
