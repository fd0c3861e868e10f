// GET /api/offers/games/:gameId/bulk-compensations/:jobId/result — the job's result as a CSV download (playerId, outcome, grantId),
// streamed from the offers service (support and leads).
import { bulkResult } from "@/lib/portal/bulk-compensation";
import { nonJson, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { BulkJobParams } from "@/lib/portal/support-shapes";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "One line per player in id order: playerId, outcome (granted, pending, cancelled, unknown), grantId", contentType: "text/csv" } }, errors: ["bulk-job-not-found", "bulk-result-deleted", ...OFFERS_ADMIN_FAILURES] },
  role: ["support", "lead"],
  params: BulkJobParams,
  handler: async ({ request, params, services }) => nonJson(await bulkResult(services, params.gameId, params.jobId, request.signal)),
});
