// POST /api/offers/games/:gameId/players/:playerId/offers/:instanceId/revoke — revoke one of the player's open offers, claimable ones too,
// with a reason (support role, audited); a repeat answers the offer as it is (changed false).
import { SupportOfferActionResponse } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { actOnOffer } from "@/lib/portal/support-actions";
import { InstanceParams, OfferActionBody } from "@/lib/portal/support-shapes";

export const POST = route({
  offersEnvironment: true,
  doc: {
    responses: { 200: { description: "The offer after the action, and whether it changed", schema: SupportOfferActionResponse } },
    errors: ["player-not-found", "offer-not-found", "offer-transition-refused", ...OFFERS_ADMIN_FAILURES],
  },
  role: "support",
  params: InstanceParams,
  body: OfferActionBody,
  handler: async ({ request, user, params, body, services }) => json(await actOnOffer(services, auditContextOf(request, user), params, "revoke", body)),
});
