// GET /api/offers/games/:gameId/definitions/:offerId/funnel?days= — assigned, surfaced, viewed, claimable,
// claimed, expired and conversion: overall, per UTC day and per variant, with the variants' comparisons (liveops).
import { DefinitionFunnel } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { DaysQuery, DefinitionParams, LIVE_OPS } from "../../../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "The funnel", schema: DefinitionFunnel } }, errors: ["offer-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: LIVE_OPS,
  params: DefinitionParams,
  query: DaysQuery,
  handler: async ({ request, params, query, services }) => json(await services.offersAdmin().definitionFunnel(params.gameId, params.offerId, query.days, request.signal)),
});
