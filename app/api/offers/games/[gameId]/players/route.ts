// GET /api/offers/games/:gameId/players?q=&limit= — players whose id or username contains q (support,
// and live ops to preview an offer as a player).
import { z } from "zod";
import { AdminPlayerSummary } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { GameParams, PlayerQuery } from "../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "Players whose id or username contains q", schema: z.object({ players: z.array(AdminPlayerSummary) }) } }, errors: [...OFFERS_ADMIN_FAILURES] },
  role: ["support", "liveops"],
  params: GameParams,
  query: PlayerQuery,
  handler: async ({ request, params, query, services }) =>
    json({ players: await services.offersAdmin().findPlayers(params.gameId, query.q.trim(), query.limit, request.signal) }),
});
