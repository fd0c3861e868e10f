/**
 * The portal's domain errors, modelled on lib/offers/errors.ts: a CLOSED union of stable codes (an
 * error body's `message`), a sentence for people (`detail`), and for bad input the issues. Domain code
 * throws these and carries no HTTP status; lib/portal/http/status.ts holds the one table from code to
 * status, lib/portal/http/respond.ts the one mapper. docs/operations/error-codes.md lists
 * every code with its status and what a caller should do.
 */
import { CodedError, type ErrorFields, type ErrorIssue } from "../errors";
import { CATALOG_ERROR_CODES } from "../catalog/errors";
import { hasRole, type PortalUser, type Role } from "./roles";

export type { ErrorIssue as PortalIssue } from "../errors";

/** What the offers-admin client fails with (lib/portal/offers-admin-error.ts). */
export const OFFERS_ADMIN_ERROR_CODES = [
  "offers-service-unavailable",
  "offers-admin-token-rejected",
  "offers-bad-response",
  "offers-request-refused",
  // The offers service's own codes, passed through: the support and live-ops UIs tell them apart.
  "game-not-found",
  "player-not-found",
  "offer-not-found",
  "definition-exists",
  "definition-archived",
  // Reward delivery: passed through the same way.
  "webhook-endpoint-not-found",
  "webhook-delivery-not-found",
  "webhook-url-not-allowed",
  "too-many-webhook-endpoints",
  // Support grants: passed through the same way.
  "unknown-reward",
  "support-grant-not-found",
  "support-grant-decided",
  "support-grant-expired",
  "four-eyes-same-person",
  "idempotency-key-reused",
  // Bulk compensations: passed through the same way.
  "bulk-job-not-found",
  "bulk-job-decided",
  "bulk-job-expired",
  "bulk-job-finished",
  "bulk-result-deleted",
  "bulk-no-players",
  "bulk-too-many-players",
  // The timeline: a cursor the service did not make.
  "invalid-cursor",
  // Support acts on a player's offers: passed through the same way.
  "offer-already-assigned",
  "offer-transition-refused",
  "expiry-out-of-range",
] as const;

export const PORTAL_ERROR_CODES = [
  ...CATALOG_ERROR_CODES,
  ...OFFERS_ADMIN_ERROR_CODES,
  // the request
  "invalid-request",
  "payload-too-large",
  "precondition-required",
  // who calls
  "unauthenticated",
  "forbidden",
  "cross-site-request",
  "session-required",
  "own-order",
  // the portal's records
  "token-not-found",
  "name-taken",
  "order-decided",
  "not-mergeable",
  "merge-conflict",
  "merge-request-decided",
  "order-merge-request",
  "own-merge-request",
  "not-releasable",
  "already-released",
  "invalid-config",
  // source control (lib/scm's ScmError codes are translated into these by the mapper)
  "source-control-invalid",
  "source-control-refused",
  "source-control-failed",
  "source-control-busy",
  // the portal itself
  "rate-limited",
  "database-unavailable",
  "internal-error",
] as const;

export type PortalErrorCode = (typeof PORTAL_ERROR_CODES)[number];
export type OffersAdminErrorCode = (typeof OFFERS_ADMIN_ERROR_CODES)[number];

// Failures routes share, for their tables of error codes (the OpenAPI document: lib/portal/http/openapi.ts).
/** Any call through the offers service's admin API (lib/portal/offers-admin.ts). */
export const OFFERS_ADMIN_FAILURES = ["offers-service-unavailable", "offers-admin-token-rejected", "offers-bad-response", "offers-request-refused"] as const satisfies readonly PortalErrorCode[];
/** Any read from source control. */
export const SOURCE_CONTROL_FAILURES = ["source-control-invalid", "source-control-refused", "source-control-failed", "source-control-busy"] as const satisfies readonly PortalErrorCode[];
/** Any change written to the config repository: a commit, or a merge request through source control. */
export const GITOPS_FAILURES = ["conflict", ...SOURCE_CONTROL_FAILURES] as const satisfies readonly PortalErrorCode[];

export class PortalError extends CodedError<PortalErrorCode> {
  static readonly brand: string = "portal.PortalError";

  constructor(code: PortalErrorCode, detail: string, options: { issues?: ErrorIssue[]; fields?: ErrorFields; cause?: unknown } = {}) {
    super(code, detail, options);
    this.name = "PortalError";
  }
}

/**
 * Who else a rule lets in beside roles: the owners of the component concerned, the author of a merge request.
 * A 403 names them too, so a caller does not go and ask for a role that is only one way in.
 */
export type Standing = "owner" | "author";

/**
 * forbidden, naming the role the call needs (and, when the rule is more than the role, saying it). A call
 * open to any of several roles or standings names them all: requiredRole "support or liveops", "owner or operator".
 */
export function forbidden(requiredRole: Role | readonly (Role | Standing)[], detail?: string): PortalError {
  const named = typeof requiredRole === "string" ? requiredRole : requiredRole.join(" or ");
  return new PortalError("forbidden", detail ?? `this needs the ${named} role`, { fields: { requiredRole: named } });
}

/** Throws forbidden naming the role unless the user holds it (admin implies every role). */
export function requireRole(user: PortalUser, role: Role): void {
  if (!hasRole(user, role)) throw forbidden(role);
}

/** Throws forbidden naming every role unless the user holds at least one of them. */
export function requireAnyRole(user: PortalUser, roles: readonly Role[]): void {
  if (!roles.some((role) => hasRole(user, role))) throw forbidden(roles);
}

/** "no component named …": the one not-found sentence of the component routes. */
export function componentNotFound(name: string): PortalError {
  return new PortalError("not-found", `no component named "${name}"`);
}
