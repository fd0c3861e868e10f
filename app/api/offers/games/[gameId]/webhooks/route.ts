// GET /api/offers/games/:gameId/webhooks — the game's webhook endpoints and delivery figures (lag, pending, dead letters); live ops.
import { json, route } from "@/lib/portal/http";
import { webhooksOverview } from "@/lib/portal/webhooks";
import { GameParams } from "../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  role: "liveops",
  params: GameParams,
  handler: async ({ request, params, services }) => json(await webhooksOverview(services, params.gameId, request.signal)),
});
