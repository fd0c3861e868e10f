// POST /api/offers/games/:gameId/audience/count {audience, rollout?, offerId?} — how many of the game's
// players the audience matches now, of how many (liveops; reads only). A fault in the rule answers 400
// invalid-request with its path (["audience", "all", "1", "value"]).
import { AudienceCountRequest } from "@/lib/offers-client/schemas";
import { json, route } from "@/lib/portal/http";
import { GameParams, LIVE_OPS } from "../../../../params";

export const dynamic = "force-dynamic";

export const POST = route({
  offersEnvironment: true,
  role: LIVE_OPS,
  params: GameParams,
  body: AudienceCountRequest,
  handler: async ({ request, params, body, services }) => json(await services.offersAdmin().audienceCount(params.gameId, body, request.signal)),
});
