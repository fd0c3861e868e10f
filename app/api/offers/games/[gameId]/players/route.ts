// GET /api/offers/games/:gameId/players?q=&limit= — players whose id or username contains q (support,
// and live ops to preview an offer as a player).
import { json, route } from "@/lib/portal/http";
import { GameParams, PlayerQuery } from "../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  role: ["support", "liveops"],
  params: GameParams,
  query: PlayerQuery,
  handler: async ({ request, params, query, services }) =>
    json({ players: await services.offersAdmin().findPlayers(params.gameId, query.q.trim(), query.limit, request.signal) }),
});
