/** The one optimistic-concurrency rule of the API: If-Match on a change, 412 with the current ETag when it is stale. */
import { z } from "zod";

/** A change whose If-Match is stale: the current ETag (also the ETag header), to GET again and retry with. */
export const PreconditionFailed = z.object({
  message: z.literal("precondition-failed"),
  etag: z.string().describe("The current ETag"),
});
export type PreconditionFailed = z.infer<typeof PreconditionFailed>;

/**
 * If-Match of a change on the admin API: the ETag the change was based on. Required when the thing
 * changed exists (428 precondition-required without); a stale one is 412 precondition-failed with the
 * current ETag. Optional in the schema because a PUT that creates needs none.
 */
export const IfMatchRequired = z
  .object({
    "if-match": z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .describe("The ETag this change is based on (or *). Required to change something that exists: 428 without it, 412 with the current ETag when it is stale"),
  })
  .loose();

/** If-Match of a game server's change: optional (calls written before it keep working); when sent, checked as on the admin API. */
export const IfMatchOptional = z
  .object({
    "if-match": z.string().min(1).max(1024).optional().describe("Optional: the ETag this change is based on (or *); a stale one is 412 with the current ETag"),
  })
  .loose();
