// GET /api/offers/games/:gameId/players?q=&limit= — players whose id or username contains q (support role).
import { authorize } from "@/lib/portal/guard";
import { adminErrorResponse, getOffersAdmin } from "@/lib/portal/offers-admin";
import { badRequest, GameParams, noStore, PlayerQuery } from "../../../params";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ gameId: string }> }) {
  const auth = await authorize(request, "support");
  if (!auth.ok) return auth.response;
  const params = GameParams.safeParse(await context.params);
  if (!params.success) return badRequest(params.error.issues);
  const query = PlayerQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return badRequest(query.error.issues);
  try {
    const players = await getOffersAdmin().findPlayers(params.data.gameId, query.data.q.trim(), query.data.limit, request.signal);
    return Response.json({ players }, noStore);
  } catch (error) {
    return adminErrorResponse(error);
  }
}
