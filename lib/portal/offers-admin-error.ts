// The error of the portal's offers-admin client, apart from the client (which is server-only) so the
// portal's error mapper can tell it without loading the client.

/**
 * Why an admin call failed:
 * - `offers-service-unavailable`: the service did not answer (refused, reset, timeout) or answered 5xx;
 * - `offers-admin-token-rejected`: the service refused our admin token (a configuration problem);
 * - `offers-bad-response`: the answer did not have the documented shape;
 * - otherwise the service's own code (`player-not-found`, `invalid-request`, …) with its status.
 */
export class OffersAdminError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message?: string,
  ) {
    super(message ?? code);
    this.name = "OffersAdminError";
  }

  get unavailable(): boolean {
    return this.code === "offers-service-unavailable";
  }
}
