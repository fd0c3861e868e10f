// GET /api/offers/games/:gameId/support-thresholds — when a support grant waits for a second person (support and leads).
// PUT — sets them (leads; audited with the rules before and after).
import { SupportThresholds } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { setSupportThresholds, supportThresholds } from "@/lib/portal/support-grants";
import { GameParams } from "../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "The game environment's four-eyes thresholds", schema: SupportThresholds } }, errors: ["game-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: ["support", "lead"],
  params: GameParams,
  handler: async ({ request, params, services }) => json(await supportThresholds(services, params.gameId, request.signal)),
});

export const PUT = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "The thresholds as now in force", schema: SupportThresholds } }, errors: ["game-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: "lead",
  params: GameParams,
  body: SupportThresholds,
  handler: async ({ request, user, params, body, services }) => json(await setSupportThresholds(services, auditContextOf(request, user), params.gameId, body)),
});
