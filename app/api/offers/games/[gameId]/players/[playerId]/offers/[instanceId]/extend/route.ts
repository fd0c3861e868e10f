// POST /api/offers/games/:gameId/players/:playerId/offers/:instanceId/extend — move an open offer's expiry later
// (at most 30 days from now), with a reason (support role, audited); the same expiry again answers the offer as it is.
import { SupportOfferActionResponse } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { actOnOffer } from "@/lib/portal/support-actions";
import { ExtendOfferBody, InstanceParams } from "@/lib/portal/support-shapes";

export const POST = route({
  offersEnvironment: true,
  doc: {
    responses: { 200: { description: "The offer with its new expiry, and whether it changed", schema: SupportOfferActionResponse } },
    errors: ["player-not-found", "offer-not-found", "offer-transition-refused", "expiry-out-of-range", ...OFFERS_ADMIN_FAILURES],
  },
  role: "support",
  params: InstanceParams,
  body: ExtendOfferBody,
  handler: async ({ request, user, params, body, services }) => json(await actOnOffer(services, auditContextOf(request, user), params, "extend", body)),
});
