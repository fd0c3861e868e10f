// GET /api/offers/games — the games of the offers service, through the admin API: support inspects
// their players, live ops authors their offers, leads pick the game whose support grants they approve.
import { z } from "zod";
import { AdminGame } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "The games", schema: z.object({ games: z.array(AdminGame) }) } }, errors: [...OFFERS_ADMIN_FAILURES] },
  role: ["support", "liveops", "lead"],
  handler: async ({ request, services }) => json({ games: await services.offersAdmin().listGames(request.signal) }),
});
