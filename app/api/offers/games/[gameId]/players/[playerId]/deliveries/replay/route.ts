// POST /api/offers/games/:gameId/players/:playerId/deliveries/replay — send the player's webhook deliveries again, all or
// one, with a reason (support role, audited); a repeat within seconds sends nothing more.
import { SupportResendResponse } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { resendDeliveries } from "@/lib/portal/support-actions";
import { ResendDeliveriesBody } from "@/lib/portal/support-shapes";
import { PlayerParams } from "../../../../../../params";

export const POST = route({
  offersEnvironment: true,
  doc: {
    responses: { 200: { description: "How many of the player's deliveries are queued again", schema: SupportResendResponse } },
    errors: ["player-not-found", "webhook-delivery-not-found", ...OFFERS_ADMIN_FAILURES],
  },
  role: "support",
  params: PlayerParams,
  body: ResendDeliveriesBody,
  handler: async ({ request, user, params, body, services }) => json(await resendDeliveries(services, auditContextOf(request, user), params.gameId, params.playerId, body)),
});
