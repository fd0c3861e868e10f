// GET /api/offers/games — the games of the offers service, through the admin API: support inspects
// their players, live ops authors their offers.
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  role: ["support", "liveops"],
  handler: async ({ request, services }) => json({ games: await services.offersAdmin().listGames(request.signal) }),
});
