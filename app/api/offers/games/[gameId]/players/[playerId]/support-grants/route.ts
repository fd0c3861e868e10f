// POST /api/offers/games/:gameId/players/:playerId/support-grants — grant a compensation reward (support role, audited):
// granted at once below the game's thresholds, else pending until a second person approves it.
import { SupportGrantResponse } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { grantCompensation } from "@/lib/portal/support-grants";
import { CompensationBody, GrantHeaders } from "@/lib/portal/support-shapes";
import { PlayerParams } from "../../../../../params";

export const POST = route({
  offersEnvironment: true,
  doc: {
    responses: { 200: { description: "The grant: status granted, or pending approval", schema: SupportGrantResponse } },
    errors: ["player-not-found", "unknown-reward", "idempotency-key-reused", ...OFFERS_ADMIN_FAILURES],
  },
  role: "support",
  params: PlayerParams,
  headers: GrantHeaders,
  body: CompensationBody,
  handler: async ({ request, user, params, headers, body, services }) =>
    json({ grant: await grantCompensation(services, auditContextOf(request, user), params.gameId, params.playerId, body, headers["idempotency-key"]) }),
});
