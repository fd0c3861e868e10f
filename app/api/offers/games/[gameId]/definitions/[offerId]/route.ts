// GET /api/offers/games/:gameId/definitions/:offerId — one definition, its audience in words and its
// surfacing jobs, with its version as the ETag (liveops). PUT — replace it; If-Match (that ETag) is
// required and a stale one answers 409 definition-changed; instances already given keep their copy. Audited.
import { OfferDefinitionInput } from "@/lib/offers-client/schemas";
import { json, route } from "@/lib/portal/http";
import { auditDefinitionChange } from "@/lib/portal/audit-recorder";
import { DefinitionIfMatch, DefinitionParams, LIVE_OPS, versionOf } from "../../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  role: LIVE_OPS,
  params: DefinitionParams,
  handler: async ({ request, params, services }) => {
    const detail = await services.offersAdmin().definition(params.gameId, params.offerId, request.signal);
    return json(detail, { headers: { ETag: `"${detail.definition.version}"` } });
  },
});

export const PUT = route({
  offersEnvironment: true,
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
