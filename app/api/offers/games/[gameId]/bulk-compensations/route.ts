// /api/offers/games/:gameId/bulk-compensations — incident compensations of a game environment.
// GET: newest first and how many wait for approval (support and leads). POST: ask for one (support role, audited): it waits for
// a second person's approval, always. A multipart form (the CSV can be far larger than a JSON body); Idempotency-Key per form.
import { BulkCompensationList, BulkCompensationResponse } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { askBulk, bulkJobs, BulkJobsQuery, readBulkUpload } from "@/lib/portal/bulk-compensation";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { BulkCompensationForm, GrantHeaders } from "@/lib/portal/support-shapes";
import { GameParams } from "../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: { responses: { 200: { description: "Bulk compensations and the count of pending ones", schema: BulkCompensationList } }, errors: ["game-not-found", ...OFFERS_ADMIN_FAILURES] },
  role: ["support", "lead"],
  params: GameParams,
  query: BulkJobsQuery,
  handler: async ({ request, params, query, services }) => json(await bulkJobs(services, params.gameId, query, request.signal)),
});

export const POST = route({
  offersEnvironment: true,
  doc: {
    requestForm: BulkCompensationForm,
    responses: { 200: { description: "The job, pending approval, with its preview", schema: BulkCompensationResponse } },
    errors: ["game-not-found", "unknown-reward", "bulk-no-players", "bulk-too-many-players", "idempotency-key-reused", "payload-too-large", ...OFFERS_ADMIN_FAILURES],
  },
  role: "support",
  params: GameParams,
  headers: GrantHeaders,
  handler: async ({ request, user, params, headers, services }) =>
    json({ job: await askBulk(services, auditContextOf(request, user), params.gameId, await readBulkUpload(request), headers["idempotency-key"]) }),
});
