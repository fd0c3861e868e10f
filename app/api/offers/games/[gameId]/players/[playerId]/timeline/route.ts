// GET /api/offers/games/:gameId/players/:playerId/timeline — one page of a player's timeline, newest first
// (support role): offer transitions with their causes, rewards, deliveries with their attempts, support grants.
import { TimelinePage, TimelineQuery } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { PlayerParams } from "../../../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "One page of the timeline and the cursor of the next", schema: TimelinePage } }, errors: ["player-not-found", "invalid-cursor", ...OFFERS_ADMIN_FAILURES] },
  role: "support",
  params: PlayerParams,
  query: TimelineQuery,
  handler: async ({ request, params, query, services }) => json(await services.offersAdmin().playerTimeline(params.gameId, params.playerId, query, request.signal)),
});
