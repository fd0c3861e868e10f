// POST /api/merge-requests/:id/approve → Review. The component's owners and operators; not the author.
import { approveReview } from "@/lib/portal/gitops/reviews";
import { reviewParamsSchema } from "@/lib/portal/gitops/review-shapes";
import { auditReviewDecision } from "@/lib/portal/audit-recorder";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const POST = route({
  role: "engineer",
  params: reviewParamsSchema,
  handler: async ({ request, user, params: { id }, services }) => {
    const review = await approveReview(await services.gitops(), user, id);
    await auditReviewDecision(services, request, user, "approve", review);
    return json(review);
  },
});
