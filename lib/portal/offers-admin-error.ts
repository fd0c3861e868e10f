// The error of the portal's offers-admin client, apart from the client (which is server-only) so the
// portal's error mapper can tell it without loading the client.
import { PortalError, type OffersAdminErrorCode } from "./errors";

/**
 * Why an admin call failed (a PortalError: the portal's mapper gives it its status):
 * - `offers-service-unavailable`: the service did not answer (refused, reset, timeout) or answered 5xx;
 * - `offers-admin-token-rejected`: the service refused our admin token (a configuration problem);
 * - `offers-bad-response`: the answer did not have the documented shape;
 * - `game-not-found`, `player-not-found`: the service's own not-found codes, passed through;
 * - `offers-request-refused`: any other refusal (the portal checks input first, so this is a mismatch).
 */
export class OffersAdminError extends PortalError {
  static readonly brand: string = "portal.OffersAdminError";
  declare readonly code: OffersAdminErrorCode;

  constructor(code: OffersAdminErrorCode, detail?: string) {
    super(code, detail ?? code.replaceAll("-", " "));
    this.name = "OffersAdminError";
  }

  get unavailable(): boolean {
    return this.code === "offers-service-unavailable";
  }
}
