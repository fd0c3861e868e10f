// GET /api/offers/games/:gameId/players/:playerId — a player's whole state (support role):
// snapshot, currencies, offers with their event timelines, ledger, referrals, whether connected.
import { authorize } from "@/lib/portal/guard";
import { adminErrorResponse, getOffersAdmin } from "@/lib/portal/offers-admin";
import { badRequest, noStore, PlayerParams } from "../../../../params";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ gameId: string; playerId: string }> }) {
  const auth = await authorize(request, "support");
  if (!auth.ok) return auth.response;
  const params = PlayerParams.safeParse(await context.params);
  if (!params.success) return badRequest(params.error.issues);
  try {
    return Response.json(await getOffersAdmin().playerState(params.data.gameId, params.data.playerId, request.signal), noStore);
  } catch (error) {
    return adminErrorResponse(error);
  }
}
