/**
 * The offer engine: assignment into slots or the queue, queue promotion, trackers from snapshot
 * `out` deltas, viewing, expiry, exactly-once claims of offers and referrals. One module per
 * concern; every write about a player composes into one per-player transaction (./transaction).
 */
export { OffersEngine } from "./engine";
export { withPlayerTransaction, type PlayerTx } from "./transaction";
export { assignOfferIn } from "./assignment";
export { pushSnapshotIn } from "./snapshots";
export { viewOffersIn } from "./campaigns";
export { claimOfferIn, claimReferralIn } from "./claims";
export { settle } from "./settle";
export { computeTrackers, trackerKeys } from "./trackers";
export { coreOf, snapshotOf, toOffer } from "./views";
export {
  DEFAULT_MAX_OFFER_SLOTS,
  IDEMPOTENCY_KEY_TTL_MS,
  type ClaimIdempotency,
  type ClaimOutcome,
  type ClaimRequest,
  type OfferEvent,
  type OfferEventListener,
  type OfferEventType,
  type OffersEngineOptions,
  type PlayerView,
} from "./types";
