// GET /api/offers/games/:gameId/definitions/:offerId/jobs — the definition's surfacing jobs, newest first,
// with their progress (players evaluated of total, activations) (liveops).
import { z } from "zod";
import { SurfacingJob } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { DefinitionParams, LIVE_OPS } from "../../../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "Surfacing jobs, newest first", schema: z.object({ jobs: z.array(SurfacingJob) }) } }, errors: [...OFFERS_ADMIN_FAILURES] },
  role: LIVE_OPS,
  params: DefinitionParams,
  handler: async ({ request, params, services }) => json({ jobs: await services.offersAdmin().definitionJobs(params.gameId, params.offerId, request.signal) }),
});
