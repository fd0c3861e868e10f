// GET /api/offers/games/:gameId/players/:playerId — a player's whole state (support role):
// snapshot, currencies, offers with their event timelines, ledger, referrals, whether connected.
import { AdminPlayerState } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { PlayerParams } from "../../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "The player's whole state", schema: AdminPlayerState } }, errors: ["player-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: "support",
  params: PlayerParams,
  handler: async ({ request, params, services }) => json(await services.offersAdmin().playerState(params.gameId, params.playerId, request.signal)),
});
