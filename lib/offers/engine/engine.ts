/**
 * The offer engine's façade: one object holding the database, the clock, the cached game settings
 * and the event listeners, whose methods run the concern modules (each public write is one
 * per-player transaction, ./transaction). Domain events reach listeners after commit.
 */
import { eq } from "drizzle-orm";
import type { Clock } from "../clock";
import { systemClock } from "../clock";
import type { OffersDatabase } from "../db";
import { currencies, games, type RewardSource } from "../db/schema";
import type {
  Offer,
  OfferDefinition,
  OfferDefinitionDraft,
  PlayerReferral,
  PlayerSnapshot,
  Referral,
  ReferralCreateRequest,
  Reward,
  SnapshotPushRequest,
} from "../schemas";
import { OfferDefinitionInput } from "../schemas";
import { assignOfferIn } from "./assignment";
import { fetchCampaigns, preparedCampaignReads, type CampaignReads } from "./campaigns";
import { claimOnce } from "./claims";
import { getDefinition, writeDefinition } from "./definitions";
import { eventsSince, ledgerOf } from "./history";
import { createReferral, referralsOf } from "./referrals";
import { pushSnapshotIn } from "./snapshots";
import { purgeIdempotencyKeys, sweepExpired } from "./sweep";
import { withPlayerTransaction, type PlayerTx } from "./transaction";
import {
  DEFAULT_MAX_OFFER_SLOTS,
  type ClaimIdempotency,
  type ClaimOutcome,
  type EngineCore,
  type GameSettings,
  type OfferEvent,
  type OfferEventListener,
  type OffersEngineOptions,
  type PlayerView,
} from "./types";

const GAME_SETTINGS_TTL_MS = 5_000;

export class OffersEngine implements EngineCore {
  readonly db: OffersDatabase;
  readonly clock: Clock;
  private readonly listeners = new Set<OfferEventListener>();
  private readonly grantListeners = new Set<(gameId: string) => void>();
  private readonly errorHandler: (error: unknown) => void;
  private readonly reads: CampaignReads;
  private readonly settingsCache = new Map<string, { at: number; value: Promise<GameSettings> }>();

  constructor(options: OffersEngineOptions) {
    this.db = options.db;
    this.clock = options.clock ?? systemClock;
    this.errorHandler = options.onError ?? (() => {});
    this.reads = preparedCampaignReads(this.db);
  }

  onError(error: unknown): void {
    this.errorHandler(error);
  }

  /**
   * A game's slot count and currencies, cached for a few seconds: they change rarely (by an
   * operator), and the campaigns read is the hot path of every player of every game.
   */
  gameSettings(gameId: string): Promise<GameSettings> {
    const cached = this.settingsCache.get(gameId);
    const at = Date.now();
    if (cached && at - cached.at < GAME_SETTINGS_TTL_MS) return cached.value;
    const value = (async () => {
      const [[game], gameCurrencies] = await Promise.all([
        this.db.select({ maxOfferSlots: games.maxOfferSlots }).from(games).where(eq(games.gameId, gameId)),
        this.db.select().from(currencies).where(eq(currencies.gameId, gameId)),
      ]);
      return { exists: !!game, maxOfferSlots: game?.maxOfferSlots ?? DEFAULT_MAX_OFFER_SLOTS, currencies: gameCurrencies };
    })();
    // An unknown game is not remembered: it may be created a moment later.
    value.then((settings) => !settings.exists && this.settingsCache.delete(gameId)).catch(() => this.settingsCache.delete(gameId));
    this.settingsCache.set(gameId, { at, value });
    return value;
  }

  /** Forget a game's cached settings (after this process changed them). */
  invalidateGameSettings(gameId: string): void {
    this.settingsCache.delete(gameId);
  }

  /** Subscribes to every offer transition (after commit). Answers the unsubscribe function. */
  onOfferEvent(listener: OfferEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(events: OfferEvent[]): void {
    for (const event of events) {
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch (error) {
          this.onError(error);
        }
      }
    }
  }

  /** Runs fn in one transaction holding the player's lock; the `…In` operations of the modules compose inside it. */
  transaction<T>(gameId: string, playerId: string, fn: (tx: PlayerTx) => Promise<T>): Promise<T> {
    return withPlayerTransaction(this, gameId, playerId, fn);
  }

  /** Creates or replaces a definition (PUT semantics; see ./definitions). */
  upsertDefinition(gameId: string, offerId: string, input: OfferDefinitionDraft): Promise<OfferDefinition> {
    const parsed = OfferDefinitionInput.parse(input);
    return this.db.transaction(async (tx) => (await writeDefinition(tx, this.clock.now(), gameId, offerId, parsed)).definition);
  }

  getDefinition(gameId: string, offerId: string): Promise<OfferDefinition | null> {
    return getDefinition(this.db, gameId, offerId);
  }

  /** Assigns a definition to a player: surfaced when a slot is free, else inQueue. */
  assignOffer(gameId: string, playerId: string, offerId: string): Promise<Offer> {
    return this.transaction(gameId, playerId, (tx) => assignOfferIn(tx, offerId));
  }

  /** Upserts the player's snapshot (fields given replace, currencies/levels merge by key), then recomputes trackers. */
  pushSnapshot(gameId: string, input: SnapshotPushRequest): Promise<PlayerSnapshot> {
    return this.transaction(gameId, input.playerId, (tx) => pushSnapshotIn(tx, input));
  }

  /** The player's offers, snapshot and currency data, after due transitions (see ./campaigns). */
  fetchCampaigns(gameId: string, playerId: string, options: { viewing: boolean; includeQueued: boolean }): Promise<PlayerView> {
    return fetchCampaigns(this, this.reads, gameId, playerId, options);
  }

  /**
   * Exactly-once claim: moves claimable → claimed by a conditional update, writes the ledger row
   * (unique per source) and frees the slot (promoting the queue).
   */
  async claim(gameId: string, playerId: string, kind: "offer" | "referral", instanceId: string, idempotency?: ClaimIdempotency, via: RewardSource = "server"): Promise<Reward[]> {
    return (await this.claimOnce(gameId, playerId, kind, instanceId, idempotency, via)).rewards;
  }

  /**
   * A claim with an optional Idempotency-Key (see ./claims). `via` is who claimed, recorded in the
   * reward.granted event; calls from code of the service itself (demo data, tests) count as the server.
   */
  async claimOnce(gameId: string, playerId: string, kind: "offer" | "referral", instanceId: string, idempotency?: ClaimIdempotency, via: RewardSource = "server"): Promise<ClaimOutcome> {
    const outcome = await claimOnce(this, gameId, playerId, kind, instanceId, idempotency, via);
    if (!outcome.replayed) this.rewardGranted(gameId);
    return outcome;
  }

  /** Subscribes to "a reward.granted event was committed" (after commit; the delivery worker wakes on it). */
  onRewardGranted(listener: (gameId: string) => void): () => void {
    this.grantListeners.add(listener);
    return () => this.grantListeners.delete(listener);
  }

  private rewardGranted(gameId: string): void {
    for (const listener of this.grantListeners) {
      try {
        listener(gameId);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** Deletes Idempotency-Keys older than 24 h (the periodic sweep). */
  purgeIdempotencyKeys(): Promise<void> {
    return purgeIdempotencyKeys(this);
  }

  /** Creates a referral; claimable at once when the referee already has a snapshot, else pending. */
  createReferral(gameId: string, input: ReferralCreateRequest): Promise<Referral> {
    return createReferral(this.db, this.clock.now(), gameId, input);
  }

  referralsOf(gameId: string, referrerId: string, limit = 200): Promise<PlayerReferral[]> {
    return referralsOf(this.db, gameId, referrerId, limit);
  }

  /** Expires overdue offers of every player (and promotes their queues). Answers how many players were settled. */
  sweepExpired(limit = 500): Promise<number> {
    return sweepExpired(this, limit);
  }

  /** A player's events after a sequence id, oldest first. */
  eventsSince(gameId: string, playerId: string, afterSeq: number, limit = 500) {
    return eventsSince(this.db, gameId, playerId, afterSeq, limit);
  }

  ledgerOf(gameId: string, playerId: string) {
    return ledgerOf(this.db, gameId, playerId);
  }
}
