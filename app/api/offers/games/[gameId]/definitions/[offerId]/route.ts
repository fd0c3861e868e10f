// GET /api/offers/games/:gameId/definitions/:offerId — one definition, its audience in words and its
// surfacing jobs, with the offers service's ETag (liveops). PUT — replace it; If-Match (that ETag) is
// required (428 without) and a stale one answers 412 precondition-failed with the current ETag; instances
// already given keep their copy. Audited.
import { AdminDefinitionChange, AdminDefinitionDetail, OfferDefinitionInput } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { auditContextOf } from "@/lib/portal/audit";
import { updateDefinition } from "@/lib/portal/offer-definitions";
import { DefinitionIfMatch, DefinitionParams, LIVE_OPS } from "../../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "The definition (ETag: the offers service's, also its etag field)", schema: AdminDefinitionDetail } }, errors: ["offer-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: LIVE_OPS,
  params: DefinitionParams,
  handler: async ({ request, params, services }) => {
    const detail = await services.offersAdmin().definition(params.gameId, params.offerId, request.signal);
    return json(detail, { headers: { ETag: detail.definition.etag } });
  },
});

export const PUT = route({
  offersEnvironment: true,
  doc: {
    responses: { 200: { description: "Replaced (ETag: its new one)", schema: AdminDefinitionChange } },
    errors: ["precondition-required", "precondition-failed", "game-not-found", "offer-not-found", ...OFFERS_ADMIN_FAILURES],
  },
  role: LIVE_OPS,
  params: DefinitionParams,
  headers: DefinitionIfMatch,
  body: OfferDefinitionInput,
  handler: async ({ request, user, params, headers, body, services }) => {
    const change = await updateDefinition(services, auditContextOf(request, user), params.gameId, params.offerId, body, headers["if-match"], request.signal);
    return json(change, { headers: { ETag: change.definition.etag } });
  },
});
