// POST /api/offers/games/:gameId/bulk-compensations/:jobId/approve — approve a pending compensation (it starts granting); support or lead, never the requester (audited).
import { BulkCompensationResponse } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { actOnBulk } from "@/lib/portal/bulk-compensation";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { ApproveGrantBody, BulkJobParams } from "@/lib/portal/support-shapes";

export const POST = route({
  offersEnvironment: true,
  doc: {
    responses: { 200: { description: "The job after the change", schema: BulkCompensationResponse } },
    errors: ["bulk-job-not-found", "bulk-job-decided", "bulk-job-expired", "four-eyes-same-person", ...OFFERS_ADMIN_FAILURES],
  },
  role: ["support", "lead"],
  params: BulkJobParams,
  body: ApproveGrantBody,
  handler: async ({ request, user, params, body, services }) =>
    json({ job: await actOnBulk(services, auditContextOf(request, user), params.gameId, params.jobId, "approve", body.reason) }),
});
