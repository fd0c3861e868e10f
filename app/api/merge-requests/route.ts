// GET /api/merge-requests?component=&state=opened|merged|closed|all&author=&mine-to-review=true
// → {count, mergeRequests: Review[]}: the config repository's merge requests, each with what the caller may do.
import { ReviewList } from "@/lib/portal/contracts/reviews";
import { listReviews } from "@/lib/portal/gitops/reviews";
import { reviewListQuerySchema } from "@/lib/portal/gitops/review-shapes";
import { json, route, SOURCE_CONTROL_FAILURES } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "The merge requests, each with what the caller may do", schema: ReviewList } }, errors: [...SOURCE_CONTROL_FAILURES] },
  query: reviewListQuerySchema,
  handler: async ({ user, query, services }) => {
    const mergeRequests = await listReviews(await services.gitops(), user, {
      component: query.component,
      state: query.state,
      author: query.author,
      mineToReview: query["mine-to-review"],
    });
    return json({ count: mergeRequests.length, mergeRequests });
  },
});
