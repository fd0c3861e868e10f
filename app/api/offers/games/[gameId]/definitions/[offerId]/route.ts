// GET /api/offers/games/:gameId/definitions/:offerId — one definition, its audience in words and its
// surfacing jobs, with its version as the ETag (liveops). PUT — replace it; If-Match (that ETag) is
// required and a stale one answers 409 definition-changed; instances already given keep their copy. Audited.
import { AdminDefinitionChange, AdminDefinitionDetail, OfferDefinitionInput } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { auditDefinitionChange } from "@/lib/portal/audit-recorder";
import { DefinitionIfMatch, DefinitionParams, LIVE_OPS, versionOf } from "../../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "The definition (ETag: its version)", schema: AdminDefinitionDetail } }, errors: ["offer-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: LIVE_OPS,
  params: DefinitionParams,
  handler: async ({ request, params, services }) => {
    const detail = await services.offersAdmin().definition(params.gameId, params.offerId, request.signal);
    return json(detail, { headers: { ETag: `"${detail.definition.version}"` } });
  },
});

export const PUT = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "Replaced", schema: AdminDefinitionChange } }, errors: ["precondition-required", "game-not-found", "offer-not-found", "definition-changed", ...OFFERS_ADMIN_FAILURES] },
  role: LIVE_OPS,
  params: DefinitionParams,
  headers: DefinitionIfMatch,
  body: OfferDefinitionInput,
  handler: async ({ request, user, params, headers, body, services }) => {
    const change = await services.offersAdmin().updateDefinition(params.gameId, params.offerId, body, versionOf(headers["if-match"]), request.signal);
    await auditDefinitionChange(services, request, user, params.gameId, "update", change);
    return json(change, { headers: { ETag: `"${change.definition.version}"` } });
  },
});
