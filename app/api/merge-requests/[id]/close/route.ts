// POST /api/merge-requests/:id/close {reason} → Review (closed). The component's owners, operators and the author.
import { Review } from "@/lib/portal/contracts/reviews";
import { closeReview } from "@/lib/portal/gitops/reviews";
import { closeReviewBodySchema, reviewParamsSchema } from "@/lib/portal/gitops/review-shapes";
import { auditContextOf } from "@/lib/portal/audit";
import { GITOPS_FAILURES, json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const POST = route({
  doc: { responses: { 200: { description: "Closed: the merge request as it is now", schema: Review } }, errors: ["not-found", "merge-request-decided", "order-merge-request", ...GITOPS_FAILURES] },
  role: "engineer",
  params: reviewParamsSchema,
  body: closeReviewBodySchema,
  handler: async ({ request, user, params: { id }, body, services }) => {
    const review = await closeReview(await services.gitops(), user, id, body.reason, auditContextOf(request, user));
    return json(review);
  },
});
