// POST /api/offers/games/:gameId/webhooks/replay — send again every failed delivery whose event happened in [from, to) (live ops, audited).
import { WebhookReplayRequest } from "@/lib/offers-client/schemas";
import { json, route } from "@/lib/portal/http";
import { replayFailed } from "@/lib/portal/webhooks";
import { GameParams } from "../../../../params";

export const POST = route({
  offersEnvironment: true,
  role: "liveops",
  params: GameParams,
  body: WebhookReplayRequest,
  handler: async ({ request, user, params, body, services }) => json(await replayFailed(services, request, user, params.gameId, body), { status: 202 }),
});
