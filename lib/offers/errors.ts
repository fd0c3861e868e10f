/**
 * Domain errors carry a stable code (the body's message) and the HTTP status the API maps them to.
 * The domain does not import Fastify; the status is data the app layer reads. `statusOf` is the one
 * table of every code this API answers with: the domain's, the JWT checks' and the HTTP boundary's.
 * The error handler answers from it and the OpenAPI document (http/responses.ts) is built from it.
 */
import type { JwtErrorCode } from "./contract";

export type OffersErrorCode =
  | "offer-not-found"
  | "offer-not-claimable"
  | "offer-already-assigned"
  | "referral-exists"
  | "referral-self"
  | "offer-id-mismatch"
  | "token-invalid"
  | "token-used"
  | "token-expired"
  | "game-exists"
  | "game-not-found"
  | "invalid-game-id"
  | "invalid-game-settings"
  | "too-many-keys"
  | "client-not-found"
  | "idempotency-key-reused"
  | "secret-key-mismatch"
  | "stream-replaced"
  | "definition-exists"
  | "definition-archived"
  | "precondition-failed"
  | "precondition-required"
  | "player-not-found"
  | "invalid-environment"
  | "invalid-cursor"
  | "webhook-endpoint-not-found"
  | "webhook-delivery-not-found"
  | "webhook-url-not-allowed"
  | "too-many-webhook-endpoints"
  | "unknown-reward"
  | "support-grant-not-found"
  | "support-grant-decided"
  | "support-grant-expired"
  | "four-eyes-same-person"
  | "offer-transition-refused"
  | "expiry-out-of-range"
  | "bulk-job-not-found"
  | "bulk-job-decided"
  | "bulk-job-expired"
  | "bulk-job-finished"
  | "bulk-result-deleted"
  | "bulk-no-players"
  | "bulk-too-many-players";

/**
 * Codes the HTTP layer answers by itself, before or around the domain: credentials, request
 * parsing, the framework's limits, the database.
 */
export type BoundaryErrorCode =
  | "invalid-request"
  | "invalid-api-key"
  | "invalid-admin-token"
  | "invalid-metrics-token"
  | "payload-too-large"
  | "unsupported-media-type"
  | "not-found"
  | "database-unavailable"
  | "rate-limited"
  | "internal-error";

/** Every code an error body of this API carries. */
export type ApiErrorCode = OffersErrorCode | JwtErrorCode | BoundaryErrorCode;

// Literal statuses (satisfies, not a Record annotation), so the document's types know each code's status.
export const statusOf = {
  "offer-not-found": 404,
  "offer-not-claimable": 409,
  "offer-already-assigned": 409,
  "referral-exists": 409,
  "referral-self": 400,
  "offer-id-mismatch": 400,
  "token-invalid": 401,
  "token-used": 410,
  "token-expired": 410,
  "game-exists": 409,
  "game-not-found": 404,
  "invalid-game-id": 400,
  "invalid-game-settings": 400,
  "too-many-keys": 409,
  "client-not-found": 404,
  // The same Idempotency-Key was sent earlier with another claim (RFC draft: 422).
  "idempotency-key-reused": 422,
  // A stored API key cannot be decrypted: this instance runs with another OFFERS_SECRET_KEY.
  "secret-key-mismatch": 503,
  // The automatic reconnect of an event stream displaced by a newer one: a 4xx ends a standard EventSource.
  "stream-replaced": 409,
  // Creating a definition whose offerId is taken (the admin API's create; PUT replaces).
  "definition-exists": 409,
  // An archived definition is not assigned or activated; move it back to draft first.
  "definition-archived": 409,
  // A change whose If-Match is not the current ETag: someone changed it since (the body and ETag header carry the current one).
  "precondition-failed": 412,
  // A change of something that exists, without If-Match where one is required (the admin API).
  "precondition-required": 428,
  "player-not-found": 404,
  // An admin call naming an environment other than live or test.
  "invalid-environment": 400,
  // A feed cursor this service did not write for this game and environment (another's, altered, cut short, past the end).
  "invalid-cursor": 400,
  "webhook-endpoint-not-found": 404,
  "webhook-delivery-not-found": 404,
  // An endpoint on a loopback, private or link-local address while the service refuses them (production).
  "webhook-url-not-allowed": 400,
  "too-many-webhook-endpoints": 409,
  // A support grant of a reward the game does not know (none of its currencies, no reward of its offer definitions).
  "unknown-reward": 400,
  "support-grant-not-found": 404,
  // Approve or reject of a support grant that was already approved, rejected or expired.
  "support-grant-decided": 409,
  // Approve or reject of a pending support grant past its time to be decided.
  "support-grant-expired": 409,
  // Four eyes: the person who asked for a support grant may not approve or reject it.
  "four-eyes-same-person": 403,
  // A support action the offer's status forbids (extend a claimed offer, make a queued one claimable, …); the detail says why.
  "offer-transition-refused": 409,
  // A support extension to an expiry not later than the current one, or more than 30 days ahead.
  "expiry-out-of-range": 400,
  "bulk-job-not-found": 404,
  // Approve or reject of a bulk compensation that was already approved, rejected, cancelled or expired.
  "bulk-job-decided": 409,
  // Approve or reject of a pending bulk compensation past its time to be decided.
  "bulk-job-expired": 409,
  // Cancel of a bulk compensation that has ended (done, rejected, expired).
  "bulk-job-finished": 409,
  // The result CSV of a bulk compensation whose per-player rows the retention sweep deleted (OFFERS_BULK_RETENTION_DAYS).
  "bulk-result-deleted": 410,
  // A bulk compensation whose list or audience names no player of the game environment.
  "bulk-no-players": 400,
  // More player ids than one job takes (BULK_LIMIT_IN_WORDS).
  "bulk-too-many-players": 413,
  // The JWT checks (DESIGN): 400 for the two missing claims, 401 for the rest.
  "jwt-missing-gameId": 400,
  "jwt-missing-playerId": 400,
  "jwt-invalid": 401,
  "jwt-expired": 401,
  "jwt-not-yet-valid": 401,
  "unknown-gameId": 401,
  "invalid-request": 400,
  // Body: the bare JSON string, not an object (interface).
  "invalid-api-key": 401,
  "invalid-admin-token": 401,
  // GET /metrics without the scraper's METRICS_TOKEN.
  "invalid-metrics-token": 401,
  "payload-too-large": 413,
  "unsupported-media-type": 415,
  "not-found": 404,
  "database-unavailable": 503,
  // Over the caller's budget (http/plugins/rate-limit.ts); Retry-After says when to try again.
  "rate-limited": 429,
  "internal-error": 500,
} as const satisfies Record<ApiErrorCode, number>;

export type StatusOf<C extends ApiErrorCode> = (typeof statusOf)[C];

/** Fields an error body carries besides its code: `etag` on precondition-failed (the current one). */
export interface OffersErrorFields {
  etag?: string;
}

export class OffersError extends Error {
  readonly status: number;
  constructor(
    readonly code: OffersErrorCode,
    detail?: string,
    readonly fields: OffersErrorFields = {},
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.status = statusOf[code];
  }
}
