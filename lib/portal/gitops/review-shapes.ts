/** Inputs of the review routes (client-safe: zod only; the request page's close dialog validates with it too). */
import { z } from "zod";

export const REVIEW_STATES = ["opened", "merged", "closed", "all"] as const;

export const reviewListQuerySchema = z.object({
  component: z.string().trim().min(1).max(200).optional(),
  state: z.enum(REVIEW_STATES, { error: `state must be one of ${REVIEW_STATES.join(", ")}` }).optional(),
  author: z.string().trim().min(1).max(200).optional(),
  "mine-to-review": z
    .enum(["true", "false"], { error: "mine-to-review must be true or false" })
    .optional()
    .transform((v) => v === "true"),
});

export const reviewParamsSchema = z.object({
  id: z.coerce.number({ error: "the merge request id is a number" }).int("the merge request id is a whole number").min(1, "the merge request id starts at 1"),
});

export const CLOSE_REASON_MAX = 1000;

export const closeReviewBodySchema = z.strictObject({
  reason: z
    .string({ error: "say why the request is closed" })
    .trim()
    .min(1, "say why the request is closed: the author reads it")
    .max(CLOSE_REASON_MAX, `keep the reason under ${CLOSE_REASON_MAX} characters`),
});
