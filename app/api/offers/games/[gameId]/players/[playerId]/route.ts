// GET /api/offers/games/:gameId/players/:playerId — a player's whole state (support role):
// snapshot, currencies, offers with their event timelines, ledger, referrals, whether connected.
import { json, route } from "@/lib/portal/http";
import { PlayerParams } from "../../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  role: "support",
  params: PlayerParams,
  handler: async ({ request, params, services }) => json(await services.offersAdmin().playerState(params.gameId, params.playerId, request.signal)),
});
