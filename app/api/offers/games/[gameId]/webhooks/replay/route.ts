// POST /api/offers/games/:gameId/webhooks/replay — send again every failed delivery whose event happened in [from, to) (live ops, audited).
import { WebhookReplayed, WebhookReplayRequest } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { replayFailed } from "@/lib/portal/webhooks";
import { GameParams } from "../../../../params";

export const POST = route({
  offersEnvironment: true,
  doc: { responses: { 202: { description: "How many were queued again", schema: WebhookReplayed } }, errors: ["game-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: "liveops",
  params: GameParams,
  body: WebhookReplayRequest,
  handler: async ({ request, user, params, body, services }) => json(await replayFailed(services, auditContextOf(request, user), params.gameId, body), { status: 202 }),
});
