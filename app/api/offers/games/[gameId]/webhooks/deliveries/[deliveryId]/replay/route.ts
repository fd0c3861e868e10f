// POST /api/offers/games/:gameId/webhooks/deliveries/:deliveryId/replay — send one delivery again, same webhook-id (live ops, audited).
import { json, route } from "@/lib/portal/http";
import { replayDelivery } from "@/lib/portal/webhooks";
import { DeliveryParams } from "../../../../../../params";

export const POST = route({
  offersEnvironment: true,
  role: "liveops",
  params: DeliveryParams,
  handler: async ({ request, user, params, services }) => json(await replayDelivery(services, request, user, params.gameId, params.deliveryId), { status: 202 }),
});
