// GET /api/offers/games/:gameId/webhooks/deliveries — the delivery log, newest first (?status, ?endpointId, ?before, ?limit); live ops.
import { WebhookDeliveryPage, WebhookDeliveryQuery } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { deliveryLog } from "@/lib/portal/webhooks";
import { GameParams } from "../../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "A page of the delivery log", schema: WebhookDeliveryPage } }, errors: ["game-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: "liveops",
  params: GameParams,
  query: WebhookDeliveryQuery,
  handler: async ({ request, params, query, services }) => json(await deliveryLog(services, params.gameId, query, request.signal)),
});
