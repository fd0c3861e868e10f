// GET /api/offers/games/:gameId/support-grants — a game's support grants, newest first, and how many wait for approval (support and leads).
import { SupportGrantList, SupportGrantStatus, Identifier } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { supportGrants } from "@/lib/portal/support-grants";
import { z } from "zod";
import { GameParams } from "../../../params";

export const dynamic = "force-dynamic";

const Query = z.object({ status: SupportGrantStatus.optional(), playerId: Identifier.optional(), limit: z.coerce.number().int().min(1).max(200).default(50) });

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "Support grants and the count of pending ones", schema: SupportGrantList } }, errors: ["game-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: ["support", "lead"],
  params: GameParams,
  query: Query,
  handler: async ({ request, params, query, services }) => json(await supportGrants(services, params.gameId, query, request.signal)),
});
