// POST /api/offers/games/:gameId/webhooks/deliveries/:deliveryId/replay — send one delivery again, same webhook-id (live ops, audited).
import { WebhookReplayed } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { replayDelivery } from "@/lib/portal/webhooks";
import { DeliveryParams } from "../../../../../../params";

export const POST = route({
  offersEnvironment: true,
  doc: { responses: { 202: { description: "Queued again", schema: WebhookReplayed } }, errors: ["webhook-delivery-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: "liveops",
  params: DeliveryParams,
  handler: async ({ request, user, params, services }) => json(await replayDelivery(services, auditContextOf(request, user), params.gameId, params.deliveryId), { status: 202 }),
});
