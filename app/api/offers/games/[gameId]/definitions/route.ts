// GET /api/offers/games/:gameId/definitions?days= — the game's offer definitions with their targeting,
// funnel and claims per day (liveops). POST — create one (a draft unless it names a status); audited.
import { AdminDefinitionChange, AdminDefinitionCreate, AdminDefinitionList } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { auditContextOf } from "@/lib/portal/audit";
import { createDefinition } from "@/lib/portal/offer-definitions";
import { DaysQuery, GameParams, LIVE_OPS } from "../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "The game's definitions", schema: AdminDefinitionList } }, errors: ["game-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: LIVE_OPS,
  params: GameParams,
  query: DaysQuery,
  handler: async ({ request, params, query, services }) => json(await services.offersAdmin().listDefinitions(params.gameId, query.days, request.signal)),
});

export const POST = route({
  offersEnvironment: true,
  doc: { responses: { 201: { description: "Created (ETag: its first one)", schema: AdminDefinitionChange } }, errors: ["game-not-found", "definition-exists", ...OFFERS_ADMIN_FAILURES] },
  role: LIVE_OPS,
  params: GameParams,
  body: AdminDefinitionCreate,
  handler: async ({ request, user, params, body, services }) => {
    const change = await createDefinition(services, auditContextOf(request, user), params.gameId, body, request.signal);
    return json(change, { status: 201, headers: { ETag: change.definition.etag } });
  },
});
