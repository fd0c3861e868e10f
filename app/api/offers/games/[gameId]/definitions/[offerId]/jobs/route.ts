// GET /api/offers/games/:gameId/definitions/:offerId/jobs — the definition's surfacing jobs, newest first,
// with their progress (players evaluated of total, activations) (liveops).
import { json, route } from "@/lib/portal/http";
import { DefinitionParams, LIVE_OPS } from "../../../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  role: LIVE_OPS,
  params: DefinitionParams,
  handler: async ({ request, params, services }) => json({ jobs: await services.offersAdmin().definitionJobs(params.gameId, params.offerId, request.signal) }),
});
