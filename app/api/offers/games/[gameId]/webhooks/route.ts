// GET /api/offers/games/:gameId/webhooks — the game's webhook endpoints and delivery figures (lag, pending, dead letters); live ops.
import { AdminWebhooks } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { webhooksOverview } from "@/lib/portal/webhooks";
import { GameParams } from "../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "Endpoints and delivery figures", schema: AdminWebhooks } }, errors: ["game-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: "liveops",
  params: GameParams,
  handler: async ({ request, params, services }) => json(await webhooksOverview(services, params.gameId, request.signal)),
});
