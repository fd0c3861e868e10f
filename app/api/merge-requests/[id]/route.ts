// GET /api/merge-requests/:id → Review with its changes: {files: [{oldPath, newPath, newFile, deletedFile, diff}], hasConflicts}.
import { ReviewDetail } from "@/lib/portal/contracts/reviews";
import { getReview } from "@/lib/portal/gitops/reviews";
import { reviewParamsSchema } from "@/lib/portal/gitops/review-shapes";
import { json, route, SOURCE_CONTROL_FAILURES } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "The merge request with its changes", schema: ReviewDetail } }, errors: ["not-found", ...SOURCE_CONTROL_FAILURES] },
  params: reviewParamsSchema,
  handler: async ({ user, params: { id }, services }) => json(await getReview(await services.gitops(), user, id)),
});
