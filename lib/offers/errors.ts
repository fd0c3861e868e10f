/**
 * Domain errors carry a stable code (the body's message) and the HTTP status the API maps them to.
 * The domain does not import Fastify; the status is data the app layer reads.
 */
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
  | "definition-changed"
  | "definition-archived"
  | "player-not-found"
  | "invalid-environment"
  | "invalid-cursor"
  | "webhook-endpoint-not-found"
  | "webhook-delivery-not-found"
  | "webhook-url-not-allowed"
  | "too-many-webhook-endpoints";

const statusOf: Record<OffersErrorCode, number> = {
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
  // An edit or status change sent with the version it was based on, and the definition moved on since.
  "definition-changed": 409,
  // An archived definition is not assigned or activated; move it back to draft first.
  "definition-archived": 409,
  "player-not-found": 404,
  // An admin call naming an environment other than live or test.
  "invalid-environment": 400,
  // A feed cursor this service did not write (or cut short).
  "invalid-cursor": 400,
  "webhook-endpoint-not-found": 404,
  "webhook-delivery-not-found": 404,
  // An endpoint on a loopback, private or link-local address while the service refuses them (production).
  "webhook-url-not-allowed": 400,
  "too-many-webhook-endpoints": 409,
};

export class OffersError extends Error {
  readonly status: number;
  constructor(readonly code: OffersErrorCode, detail?: string) {
    super(detail ? `${code}: ${detail}` : code);
    this.status = statusOf[code];
  }
}
