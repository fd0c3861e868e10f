// GET /api/offers/games/:gameId/bulk-compensations/:jobId — one incident compensation: preview, status, progress (support and leads).
import { BulkCompensationResponse } from "@/lib/offers-client/schemas";
import { bulkJob } from "@/lib/portal/bulk-compensation";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { BulkJobParams } from "@/lib/portal/support-shapes";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "The job", schema: BulkCompensationResponse } }, errors: ["bulk-job-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: ["support", "lead"],
  params: BulkJobParams,
  handler: async ({ request, params, services }) => json({ job: await bulkJob(services, params.gameId, params.jobId, request.signal) }),
});
