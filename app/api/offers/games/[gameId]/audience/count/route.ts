// POST /api/offers/games/:gameId/audience/count {audience, rollout?, offerId?} — how many of the game's
// players the audience matches now, of how many (liveops; reads only). A fault in the rule answers 400
// invalid-request with its path (["audience", "all", "1", "value"]).
import { AudienceCount, AudienceCountRequest } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { GameParams, LIVE_OPS } from "../../../../params";

export const dynamic = "force-dynamic";

export const POST = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "Matching players of all", schema: AudienceCount } }, errors: ["game-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: LIVE_OPS,
  params: GameParams,
  body: AudienceCountRequest,
  handler: async ({ request, params, body, services }) => json(await services.offersAdmin().audienceCount(params.gameId, body, request.signal)),
});
