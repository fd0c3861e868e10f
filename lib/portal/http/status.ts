/**
 * The one table from a portal error code to its HTTP status, total over the closed union (the compiler
 * refuses a missing code), and the translation of source control's own codes into portal codes.
 */
import type { ScmErrorCode } from "@/lib/scm/types";
import type { PortalErrorCode } from "../errors";

export const statusOf: Record<PortalErrorCode, number> = {
  "invalid-request": 400,
  unauthenticated: 401,
  forbidden: 403,
  "cross-site-request": 403,
  "session-required": 403,
  "own-order": 403,
  "own-merge-request": 403,
  "not-found": 404,
  "token-not-found": 404,
  "game-not-found": 404,
  "player-not-found": 404,
  "offer-not-found": 404,
  "webhook-endpoint-not-found": 404,
  "webhook-delivery-not-found": 404,
  // A URL the offers service refuses (loopback or private address): the caller's input.
  "webhook-url-not-allowed": 400,
  "too-many-webhook-endpoints": 409,
  // Support grants (the offers service's codes, passed through).
  "unknown-reward": 400,
  "support-grant-not-found": 404,
  "support-grant-decided": 409,
  "support-grant-expired": 409,
  "four-eyes-same-person": 403,
  "idempotency-key-reused": 422,
  "bulk-job-not-found": 404,
  "bulk-job-decided": 409,
  "bulk-job-expired": 409,
  "bulk-job-finished": 409,
  "bulk-result-deleted": 410,
  "bulk-no-players": 400,
  "bulk-too-many-players": 413,
  "invalid-cursor": 400,
  // Support acts on a player's offers (the offers service's codes, passed through).
  "offer-already-assigned": 409,
  "offer-transition-refused": 409,
  "expiry-out-of-range": 400,
  conflict: 409,
  "name-taken": 409,
  "order-decided": 409,
  "not-mergeable": 409,
  "merge-conflict": 409,
  "merge-request-decided": 409,
  "order-merge-request": 409,
  "already-released": 409,
  "definition-exists": 409,
  "definition-archived": 409,
  "precondition-failed": 412,
  "payload-too-large": 413,
  "invalid-record": 422,
  "invalid-config": 422,
  "not-releasable": 422,
  "source-control-invalid": 422,
  "precondition-required": 428,
  // Over the caller's budget (lib/portal/rate-limit.ts): Retry-After and RateLimit-* say when to try again.
  "rate-limited": 429,
  "internal-error": 500,
  // A service behind the portal failed or refused the portal's own credentials: not the caller's fault.
  "source-control-refused": 502,
  "source-control-failed": 502,
  "offers-admin-token-rejected": 502,
  "offers-bad-response": 502,
  "offers-request-refused": 502,
  // Brief outages: answered with Retry-After.
  "source-control-busy": 503,
  "offers-service-unavailable": 503,
  "database-unavailable": 503,
};

/** lib/scm's codes as the portal answers them when a provider error reaches a route unchanged. */
export const scmCodeOf: Record<ScmErrorCode, PortalErrorCode> = {
  not_found: "not-found",
  conflict: "conflict",
  not_mergeable: "not-mergeable",
  invalid: "source-control-invalid",
  unauthorized: "source-control-refused",
  forbidden: "source-control-refused",
  rate_limited: "source-control-busy",
  unavailable: "source-control-failed",
};

/** The caller went away before the answer (nginx's 499): nobody reads it, nothing is logged. */
export const CLIENT_CLOSED_REQUEST = 499;

/** Seconds a client should wait before retrying a 503 (the database, the offers service, source control). */
export const RETRY_AFTER_SECONDS = 5;
