// The contract of /api/merge-requests…: read by the routes, the OpenAPI document and components/reviews/api.ts. zod only.
import { z } from "zod";

export const ReviewScope = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("component"), component: z.string() }),
  z.object({ kind: z.literal("import") }),
  z.object({ kind: z.literal("order"), component: z.string(), orderId: z.string() }),
  z.object({ kind: z.literal("other") }),
]);

/** A merge request of the config repository as the portal reviews it. */
export const Review = z.object({
  iid: z.number().int().describe("The merge request's number in the config repository (!iid): the {id} of /api/merge-requests/{id}"),
  title: z.string(),
  description: z.string(),
  author: z.string().describe("Who proposed it (the portal user)"),
  sourceBranch: z.string(),
  targetBranch: z.string(),
  state: z.enum(["opened", "merged", "closed"]),
  createdAt: z.string(),
  updatedAt: z.string(),
  mergedAt: z.string().nullable(),
  webUrl: z.string().nullable(),
  scope: ReviewScope,
  approvals: z.array(z.object({ by: z.string(), name: z.string(), at: z.string() })),
  mergedBy: z.string().nullable(),
  closedBy: z.string().nullable(),
  closeReason: z.string().nullable(),
  hasConflicts: z.boolean().describe("The request no longer merges cleanly into its target (false once merged or closed)"),
  can: z
    .object({ approve: z.boolean(), merge: z.boolean(), close: z.boolean() })
    .describe("What the server would accept from the caller now (merge is false while the request conflicts with its target)"),
});
export type Review = z.infer<typeof Review>;

/** GET /api/merge-requests/{id}: the review with its changes. */
export const ReviewDetail = Review.extend({
  files: z.array(z.object({ oldPath: z.string(), newPath: z.string(), newFile: z.boolean(), deletedFile: z.boolean(), diff: z.string().describe("Unified diff hunks; empty for a binary file") })),
});
export type ReviewDetail = z.infer<typeof ReviewDetail>;

/** GET /api/merge-requests */
export const ReviewList = z.object({ count: z.number().int(), mergeRequests: z.array(Review) });
export type ReviewList = z.infer<typeof ReviewList>;
