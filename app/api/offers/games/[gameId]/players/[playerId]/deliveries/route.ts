// GET /api/offers/games/:gameId/players/:playerId/deliveries — the player's webhook deliveries, newest first (support role).
import { WebhookDeliveryPage } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { playerDeliveries } from "@/lib/portal/support-actions";
import { PlayerParams } from "../../../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "The player's last 50 deliveries, newest first", schema: WebhookDeliveryPage } }, errors: ["game-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: "support",
  params: PlayerParams,
  handler: async ({ request, params, services }) => json(await playerDeliveries(services, params.gameId, params.playerId, request.signal)),
});
