// POST /api/merge-requests/:id/approve → Review. The component's owners and operators; not the author.
import { Review } from "@/lib/portal/contracts/reviews";
import { approveReview } from "@/lib/portal/gitops/reviews";
import { reviewParamsSchema } from "@/lib/portal/gitops/review-shapes";
import { auditContextOf } from "@/lib/portal/audit";
import { json, route, SOURCE_CONTROL_FAILURES } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const POST = route({
  doc: { responses: { 200: { description: "Approved: the merge request as it is now", schema: Review } }, errors: ["not-found", "own-merge-request", "merge-request-decided", "order-merge-request", ...SOURCE_CONTROL_FAILURES] },
  role: "engineer",
  params: reviewParamsSchema,
  handler: async ({ request, user, params: { id }, services }) => {
    const review = await approveReview(await services.gitops(), user, id, auditContextOf(request, user));
    return json(review);
  },
});
