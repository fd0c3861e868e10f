// POST /api/offers/games/:gameId/definitions/:offerId/preview {playerId} — would the definition surface
// for this player now, where (surfaced or inQueue), and every check with its detail (liveops; reads only).
import { SurfacingPreview, SurfacingPreviewRequest } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { DefinitionParams, LIVE_OPS } from "../../../../../params";

export const dynamic = "force-dynamic";

export const POST = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "Every check, and the first that fails", schema: SurfacingPreview } }, errors: ["offer-not-found", "player-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: LIVE_OPS,
  params: DefinitionParams,
  body: SurfacingPreviewRequest,
  handler: async ({ request, params, body, services }) => json(await services.offersAdmin().previewDefinition(params.gameId, params.offerId, body.playerId, request.signal)),
});
