/**
 * Optimistic concurrency of the offers API, one rule for every resource an editor changes (offer
 * definitions, webhook endpoints; docs/decisions/2026-12-06-one-optimistic-concurrency-rule.md):
 * reads answer an opaque `ETag`; a change names the one it was based on in `If-Match`; a stale one is
 * 412 precondition-failed carrying the current ETag; a change of something that exists without one is
 * 428 precondition-required where the caller must send one (the admin API), and goes through
 * unconditionally where it may (game servers, whose existing calls send none).
 */
import { createHash } from "node:crypto";
import { OffersError } from "./errors";

/** The If-Match a change was sent with, and whether this caller must send one. */
export interface Precondition {
  ifMatch: string | undefined;
  required: boolean;
}

/**
 * An opaque strong ETag of the parts that name one state of a resource. Hashed so that no client reads
 * a version out of it: the only thing to do with an ETag is to send it back.
 */
export function opaqueEtag(...parts: Array<string | number>): string {
  return `"${createHash("sha256").update(parts.join("\u0000")).digest("base64url").slice(0, 27)}"`;
}

/**
 * Whether an If-Match names `etag`: one of its comma-separated tags, or `*` (any current state). A `W/`
 * prefix is ignored, as the catalog's records do (a proxy that compresses may weaken a tag on the way).
 */
export function ifMatchNames(ifMatch: string, etag: string): boolean {
  const tags = ifMatch.split(",").map((t) => t.trim().replace(/^W\//, ""));
  return tags.includes("*") || tags.includes(etag);
}

/**
 * Checks a change of something that exists (whose current ETag is `etag`) against its precondition:
 * 428 without If-Match where one is required, 412 with the current ETag when it names another state.
 * No precondition (the engine's own callers): no check.
 */
export function checkPrecondition(precondition: Precondition | undefined, etag: string, what: string): void {
  if (!precondition) return;
  const { ifMatch, required } = precondition;
  if (ifMatch === undefined) {
    if (required) throw new OffersError("precondition-required", `send If-Match with the ETag of ${what}`);
    return;
  }
  if (!ifMatchNames(ifMatch, etag)) throw new OffersError("precondition-failed", `${what} changed since that ETag`, { etag });
}
