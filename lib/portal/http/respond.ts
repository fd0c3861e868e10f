/**
 * The one place where a failure of a portal route becomes an HTTP answer. Route handlers throw (or let
 * through) whatever their domain throws; route() catches it here:
 * - PortalError → its status and `{message, detail, issues?}`;
 * - GitOps, source-control and offers-admin errors → the answers they had before this layer existed
 *   (the UI reads them);
 * - the database out of reach or too slow → 503 `database-unavailable` with Retry-After;
 * - anything else → 500 `internal-error`, logged whole.
 */
import { isDatabaseUnavailable } from "@/lib/db";
import { json, problem } from "@/lib/catalog/http";
import { ScmError, httpStatusOf } from "@/lib/scm/types";
import { GitOpsError } from "../gitops/errors";
import { OffersAdminError } from "../offers-admin-error";
import { errorBody, PortalError } from "./errors";

export { json, problem };

/** Seconds a client should wait before retrying while the database is out of reach. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const unavailableLog = { last: 0 };

export function errorResponse(error: unknown): Response {
  if (error instanceof PortalError) return portalErrorResponse(error);
  if (error instanceof GitOpsError) return problem(error.status, error.message, error.details);
  if (error instanceof ScmError) return problem(httpStatusOf(error), error.message, { code: error.code });
  if (error instanceof OffersAdminError) {
    return json({ message: error.code, detail: error.message }, { status: error.status, headers: error.unavailable ? { "Retry-After": "5" } : {} });
  }
  if (isDatabaseUnavailable(error)) {
    // One line per 10 s while it lasts: every request fails the same way.
    const now = Date.now();
    if (now - unavailableLog.last > 10_000) {
      unavailableLog.last = now;
      console.warn(`[portal] database unavailable: ${describe(error)}`);
    }
    return portalErrorResponse(new PortalError("database-unavailable", "the portal database is not answering; try again in a few seconds"));
  }
  console.error("[portal] unhandled error:", error);
  return portalErrorResponse(new PortalError("internal-error", "an unexpected error; it has been logged"));
}

export function portalErrorResponse(error: PortalError): Response {
  const headers: Record<string, string> = error.code === "database-unavailable" ? { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) } : {};
  return json(errorBody(error), { status: error.status, headers });
}

/** The innermost message of an error chain (a driver's words rather than an ORM's "Failed query: …"). */
function describe(error: unknown): string {
  let current = error as { message?: unknown; cause?: unknown } | undefined;
  let message = String(current?.message ?? error);
  for (let depth = 0; current?.cause && depth < 5; depth++) {
    current = current.cause as { message?: unknown; cause?: unknown };
    if (typeof current?.message === "string" && current.message) message = current.message;
  }
  return message;
}
