/** Types and constants shared by the engine's modules. */
import type { currencies, offerDefinitions, offerInstances, players, RewardSource } from "../db/schema";
import type { Clock } from "../clock";
import type { OffersDatabase } from "../db";
import type { Offer, OfferStatus, PlayerData, PlayerSnapshot, Reward } from "../contract";

/** `revoked` (to expired) and `extended` (a new expiry, same status) are support's acts. */
export type OfferEventType = "queued" | "surfaced" | "viewed" | "claimable" | "claimed" | "expired" | "revoked" | "extended";

export interface OfferEvent {
  /** Monotonic per player; the SSE `id:` line. */
  seq: number;
  type: OfferEventType;
  gameId: string;
  playerId: string;
  instanceId: string;
  fromStatus: OfferStatus | null;
  toStatus: OfferStatus;
  /** Why it happened: assign, viewingCampaigns, snapshot, claim, slot-freed, expiry, … */
  cause: string;
  at: string;
  /** Who moved it when a person did (support); null when the engine did. */
  actor: string | null;
  /** The offer after the transition (client view). */
  offer: Offer;
}

export type OfferEventListener = (event: OfferEvent) => void;

export const DEFAULT_MAX_OFFER_SLOTS = 3;
/** How long a claim's Idempotency-Key answers retries with the first answer. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600 * 1000;

/** The Idempotency-Key of a claim and where it was sent: keys are scoped per game, player and endpoint. */
export interface ClaimIdempotency {
  key: string;
  endpoint: "client" | "sdk";
}

/** One claim as asked: the player's offer instance or referral, with its Idempotency-Key if any, and who claimed. */
export interface ClaimRequest {
  gameId: string;
  playerId: string;
  kind: "offer" | "referral";
  instanceId: string;
  idempotency?: ClaimIdempotency;
  /** Who claimed, recorded in the reward.granted event; code of the service itself (demo data, tests) claims as the server (the default). */
  via?: RewardSource;
}

/** A claim's key with the fingerprint of the claim it was sent with. */
export type RememberedClaim = ClaimIdempotency & { fingerprint: string };

export interface ClaimOutcome {
  rewards: Reward[];
  /** True when this is the stored answer of an earlier claim with the same Idempotency-Key. */
  replayed: boolean;
}

export interface PlayerView {
  snapshot: PlayerSnapshot;
  playerData: PlayerData;
  offers: Offer[];
}

export interface GameSettings {
  exists: boolean;
  maxOfferSlots: number;
  currencies: Array<typeof currencies.$inferSelect>;
}

export type InstanceRow = typeof offerInstances.$inferSelect;
export type PlayerRow = typeof players.$inferSelect;
export type DefinitionRow = typeof offerDefinitions.$inferSelect;

/** A game's definitions that may surface by themselves, highest priority first, with the stock given out of limited ones. */
export interface TargetingCandidates {
  definitions: DefinitionRow[];
  /** Instances not expired, per offerId, for definitions with maxClaimsTotal (as of loading). */
  reserved: Map<string, number>;
}

export interface OffersEngineOptions {
  db: OffersDatabase;
  clock?: Clock;
  /**
   * Called when work after a committed change fails: a listener throws, or the settle that follows
   * a claim. The engine never lets such work break a request.
   */
  onError?: (error: unknown) => void;
}

/** What the concern modules need from the engine: storage, time, cached game settings, event delivery. */
export interface EngineCore {
  readonly db: OffersDatabase;
  readonly clock: Clock;
  gameSettings(gameId: string): Promise<GameSettings>;
  /** The game's definitions that may surface by themselves (cached for a moment; see ./surfacing). */
  targetingCandidates(gameId: string): Promise<TargetingCandidates>;
  /** Delivers committed events to listeners. */
  publish(events: OfferEvent[]): void;
  onError(error: unknown): void;
}
