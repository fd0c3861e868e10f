// GET /api/offers/games — the games of the offers service (support role), through the admin API.
import { authorize } from "@/lib/portal/guard";
import { adminErrorResponse, getOffersAdmin } from "@/lib/portal/offers-admin";
import { noStore } from "../params";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorize(request, "support");
  if (!auth.ok) return auth.response;
  try {
    return Response.json({ games: await getOffersAdmin().listGames(request.signal) }, noStore);
  } catch (error) {
    return adminErrorResponse(error);
  }
}
