// GET /api/offers/games — the games of the offers service (support role), through the admin API.
import { getOffersAdmin } from "@/lib/portal/offers-admin";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  role: "support",
  handler: async ({ request }) => json({ games: await getOffersAdmin().listGames(request.signal) }),
});
