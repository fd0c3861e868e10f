// POST /api/offers/games/:gameId/players/:playerId/offers — re-offer: assign one of the game's offer definitions to the
// player, with a reason (support role, audited); surfaced when a slot is free, else queued.
import { SupportAssignResponse } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { reoffer } from "@/lib/portal/support-actions";
import { ReofferBody } from "@/lib/portal/support-shapes";
import { PlayerParams } from "../../../../../params";

export const POST = route({
  offersEnvironment: true,
  doc: {
    responses: { 200: { description: "The new offer", schema: SupportAssignResponse } },
    errors: ["player-not-found", "offer-not-found", "offer-already-assigned", "definition-archived", ...OFFERS_ADMIN_FAILURES],
  },
  role: "support",
  params: PlayerParams,
  body: ReofferBody,
  handler: async ({ request, user, params, body, services }) => json({ offer: await reoffer(services, auditContextOf(request, user), params.gameId, params.playerId, body) }),
});
