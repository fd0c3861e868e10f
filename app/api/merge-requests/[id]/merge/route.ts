// POST /api/merge-requests/:id/merge → Review (merged). The component's owners and operators.
// 409 merge-conflict when the target moved on; 409 merge-request-decided when already merged or closed.
import { Review } from "@/lib/portal/contracts/reviews";
import { mergeReview } from "@/lib/portal/gitops/reviews";
import { reviewParamsSchema } from "@/lib/portal/gitops/review-shapes";
import { auditContextOf } from "@/lib/portal/audit";
import { GITOPS_FAILURES, json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const POST = route({
  doc: { responses: { 200: { description: "Merged: the merge request as it is now", schema: Review } }, errors: ["not-found", "merge-conflict", "merge-request-decided", "order-merge-request", ...GITOPS_FAILURES] },
  role: "engineer",
  params: reviewParamsSchema,
  handler: async ({ request, user, params: { id }, services }) => {
    const review = await mergeReview(await services.gitops(), user, id, auditContextOf(request, user));
    return json(review);
  },
});
