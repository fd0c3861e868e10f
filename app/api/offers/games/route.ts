// GET /api/offers/games — the games of the offers service (support role), through the admin API.
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  role: "support",
  handler: async ({ request, services }) => json({ games: await services.offersAdmin().listGames(request.signal) }),
});
