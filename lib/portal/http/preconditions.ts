// The one optimistic-concurrency rule of the portal's API (docs/decisions/2026-12-06-one-optimistic-concurrency-rule.md):
// a read answers an opaque ETag, a change sends it back as If-Match; without one the change is 428
// precondition-required, a stale one 412 precondition-failed with the current ETag (respond.ts).
import { z } from "zod";
import { PortalError } from "../errors";

/**
 * The headers part of a route whose change needs If-Match: a missing (or empty) one answers 428
 * precondition-required, naming `source`, the read whose ETag to send. The value is opaque: passed on
 * or compared as it came, never parsed.
 */
export function ifMatchRequired(source: string) {
  return {
    schema: z.object({ "if-match": z.string().min(1).describe(`The ETag of ${source} this change is based on`) }),
    invalid: () => new PortalError("precondition-required", `If-Match is required: send the ETag of ${source}`),
  };
}
