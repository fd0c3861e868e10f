/**
 * The offer engine's façade: one object holding the database, the clock, the cached game settings
 * and the event listeners, whose methods run the concern modules (each public write is one
 * per-player transaction, ./transaction). Domain events reach listeners after commit.
 */
import { eq } from "drizzle-orm";
import type { Clock } from "../clock";
import { systemClock } from "../clock";
import type { OffersDatabase } from "../db";
import { currencies, games } from "../db/schema";
import type {
  AudienceRule,
  Offer,
  OfferDefinition,
  OfferDefinitionDraft,
  DefinitionStatus,
  PlayerReferral,
  PlayerSnapshot,
  Referral,
  ReferralCreateRequest,
  Reward,
  SnapshotPushRequest,
} from "../contract";
import { OffersError } from "../errors";
import type { Precondition } from "../preconditions";
import { OfferDefinitionInput, type TimelineQuery } from "../contract";
import { assignOfferIn } from "./assignment";
import { fetchCampaigns, preparedCampaignReads, type CampaignReads } from "./campaigns";
import { claimOnce } from "./claims";
import { definitionRow, getDefinition, listDefinitions, setDefinitionStatus, writeDefinition, type DefinitionWrite } from "./definitions";
import { definitionFunnel, gameFunnels, type DefinitionFunnel, type DefinitionSummary } from "./funnel";
import { audienceSize, previewSurfacing, type AudienceSize, type SurfacingPreview } from "./preview";
import { listSurfacingJobs, queueSurfacingJobIn, type SurfacingJobRow } from "./surfacing-jobs";
import { eventsSince, ledgerOf } from "./history";
import { playerTimeline } from "./timeline";
import { balancesOf } from "./balances";
import { createReferral, referralsOf } from "./referrals";
import { pushSnapshotIn } from "./snapshots";
import { loadTargetingCandidates, surfaceMatchingIn } from "./surfacing";
import { purgeIdempotencyKeys, sweepExpired } from "./sweep";
import {
  decideSupportGrant,
  expireSupportGrants,
  listSupportGrants,
  requestSupportGrant,
  setSupportThresholds,
  supportThresholds,
  type SupportDecision,
  type SupportGrantAsk,
  type SupportGrantOutcome,
  type SupportGrantRow,
} from "./support-grants";
import { requirePlayer, supportAssign, supportOfferAction, type SupportOfferAsk, type SupportOfferOutcome } from "./support-actions";
import {
  cancelBulkCompensation,
  decideBulkCompensation,
  expireBulkCompensations,
  listBulkCompensations,
  requestBulkCompensation,
  resolveBulk,
  type BulkAsk,
  type BulkOutcome,
} from "./bulk-compensation";
import { withPlayerTransaction, type PlayerTx } from "./transaction";
import {
  DEFAULT_MAX_OFFER_SLOTS,
  type ClaimOutcome,
  type ClaimRequest,
  type EngineCore,
  type GameSettings,
  type OfferEvent,
  type OfferEventListener,
  type OffersEngineOptions,
  type PlayerView,
  type DefinitionRow,
  type TargetingCandidates,
} from "./types";

/** A definition write and the surfacing job it queued (null when none was needed). */
export type DefinitionChange = DefinitionWrite & { job: SurfacingJobRow | null };

const GAME_SETTINGS_TTL_MS = 5_000;
/** How long a game's targeted definitions are reused before they are read again (other instances' edits show within this). */
const TARGETING_TTL_MS = 2_000;

export class OffersEngine implements EngineCore {
  readonly db: OffersDatabase;
  readonly clock: Clock;
  private readonly listeners = new Set<OfferEventListener>();
  private readonly grantListeners = new Set<(gameId: string) => void>();
  private readonly bulkListeners = new Set<() => void>();
  private readonly errorHandler: (error: unknown) => void;
  private readonly reads: CampaignReads;
  private readonly settingsCache = new Map<string, { at: number; value: Promise<GameSettings> }>();
  private readonly candidatesCache = new Map<string, { at: number; value: Promise<TargetingCandidates> }>();
  private readonly jobListeners = new Set<(job: SurfacingJobRow) => void>();

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

  /**
   * The game's definitions that may surface by themselves, cached for a moment: the campaigns read
   * and snapshot pushes consult them on every call. A stale entry never assigns what it should not:
   * a match is re-read as stored before it is given (./surfacing).
   */
  targetingCandidates(gameId: string): Promise<TargetingCandidates> {
    const cached = this.candidatesCache.get(gameId);
    const at = Date.now();
    if (cached && at - cached.at < TARGETING_TTL_MS) return cached.value;
    const value = loadTargetingCandidates(this.db, gameId, this.clock.now());
    value.catch(() => this.candidatesCache.delete(gameId));
    this.candidatesCache.set(gameId, { at, value });
    return value;
  }

  /** Forget a game's cached targeting (after this process changed a definition). */
  invalidateTargeting(gameId: string): void {
    this.candidatesCache.delete(gameId);
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
  async upsertDefinition(gameId: string, offerId: string, input: OfferDefinitionDraft, precondition?: Precondition): Promise<OfferDefinition> {
    return (await this.saveDefinition(gameId, offerId, OfferDefinitionInput.parse(input), { precondition })).definition;
  }

  /**
   * Writes a definition and, when the written version surfaces by itself now, queues its surfacing
   * job in the same transaction (see ./surfacing-jobs). Options as writeDefinition's.
   */
  async saveDefinition(gameId: string, offerId: string, input: OfferDefinitionInput, options: Parameters<typeof writeDefinition>[5] = {}): Promise<DefinitionChange> {
    await this.requireGame(gameId);
    const change = await this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const write = await writeDefinition(tx, now, gameId, offerId, input, options);
      const activated = write.row.status === "active" && write.before?.status !== "active";
      const job = write.changed ? await queueSurfacingJobIn(tx, write.row, activated ? "activated" : "updated", now) : null;
      return { ...write, job };
    });
    this.definitionChanged(gameId, change);
    return change;
  }

  /** Activates, pauses, archives or returns a definition to draft; activation queues its surfacing job. */
  async changeDefinitionStatus(gameId: string, offerId: string, status: DefinitionStatus, precondition?: Precondition): Promise<DefinitionChange> {
    await this.requireGame(gameId);
    const change = await this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const write = await setDefinitionStatus(tx, now, gameId, offerId, status, precondition);
      const job = write.changed ? await queueSurfacingJobIn(tx, write.row, "activated", now) : null;
      return { ...write, job };
    });
    this.definitionChanged(gameId, change);
    return change;
  }

  private async requireGame(gameId: string): Promise<void> {
    if (!(await this.gameSettings(gameId)).exists) throw new OffersError("game-not-found", gameId);
  }

  private definitionChanged(gameId: string, change: DefinitionChange): void {
    if (!change.changed) return;
    this.invalidateTargeting(gameId);
    if (change.job) for (const listener of this.jobListeners) listener(change.job);
  }

  listDefinitions(gameId: string): Promise<DefinitionRow[]> {
    return listDefinitions(this.db, gameId);
  }

  definitionRow(gameId: string, offerId: string): Promise<DefinitionRow | undefined> {
    return definitionRow(this.db, gameId, offerId);
  }

  /** Would the definition surface for the player now, and if not which check fails (read-only). */
  previewSurfacing(gameId: string, offerId: string, playerId: string): Promise<SurfacingPreview> {
    return previewSurfacing(this, gameId, offerId, playerId);
  }

  /** How many of the game's players an audience matches now (with a rollout: inside it). */
  async audienceSize(gameId: string, audience: AudienceRule, rollout?: { percent: number; offerId: string }): Promise<AudienceSize> {
    await this.requireGame(gameId);
    return audienceSize(this.db, gameId, audience, rollout);
  }

  definitionFunnel(gameId: string, offerId: string, options: { days?: number; variantOrder?: string[] } = {}): Promise<DefinitionFunnel> {
    return definitionFunnel(this.db, gameId, offerId, { ...options, now: this.clock.now() });
  }

  gameFunnels(gameId: string, days?: number): Promise<Map<string, DefinitionSummary>> {
    return gameFunnels(this.db, gameId, { now: this.clock.now(), days });
  }

  surfacingJobs(gameId: string, offerId: string): Promise<SurfacingJobRow[]> {
    return listSurfacingJobs(this.db, gameId, offerId);
  }

  /** Called after a definition change queued a surfacing job (the service wakes its job runner). */
  onSurfacingJobQueued(listener: (job: SurfacingJobRow) => void): () => void {
    this.jobListeners.add(listener);
    return () => this.jobListeners.delete(listener);
  }

  getDefinition(gameId: string, offerId: string): Promise<OfferDefinition | null> {
    return getDefinition(this.db, gameId, offerId);
  }

  /** Assigns a definition to a player: surfaced when a slot is free, else inQueue. */
  assignOffer(gameId: string, playerId: string, offerId: string): Promise<Offer> {
    return this.transaction(gameId, playerId, (tx) => assignOfferIn(tx, offerId));
  }

  /** Upserts the player's snapshot (fields given replace, currencies/levels merge by key), then recomputes trackers. */
  async pushSnapshot(gameId: string, input: SnapshotPushRequest): Promise<PlayerSnapshot> {
    // Read before the transaction (on PGlite's one connection a read outside it would wait for it).
    const candidates = await this.targetingCandidates(gameId);
    return this.transaction(gameId, input.playerId, async (tx) => {
      const { snapshot, instances } = await pushSnapshotIn(tx, input, candidates.definitions.map((d) => d.offerId));
      await surfaceMatchingIn(tx, candidates, { history: instances });
      return snapshot;
    });
  }

  /** The player's offers, snapshot and currency data, after due transitions (see ./campaigns). */
  fetchCampaigns(gameId: string, playerId: string, options: { viewing: boolean; includeQueued: boolean }): Promise<PlayerView> {
    return fetchCampaigns(this, this.reads, gameId, playerId, options);
  }

  /**
   * Exactly-once claim: moves claimable → claimed by a conditional update, writes the ledger row
   * (unique per source) and frees the slot (promoting the queue).
   */
  async claim(request: ClaimRequest): Promise<Reward[]> {
    return (await this.claimOnce(request)).rewards;
  }

  /** A claim with an optional Idempotency-Key (see ./claims), answered with whether it is a replay. */
  async claimOnce(request: ClaimRequest): Promise<ClaimOutcome> {
    const outcome = await claimOnce(this, request);
    if (!outcome.replayed) this.rewardGranted(request.gameId);
    return outcome;
  }

  /** A support grant of a compensation reward (./support-grants): granted at once, or pending above the game's thresholds. */
  async requestSupportGrant(ask: SupportGrantAsk): Promise<SupportGrantOutcome> {
    const outcome = await requestSupportGrant(this, ask);
    if (!outcome.replayed && outcome.grant.status === "granted") this.rewardGranted(ask.gameId);
    return outcome;
  }

  /** Approves or rejects a pending support grant (never by its requester); exactly one decision wins. */
  async decideSupportGrant(decision: SupportDecision): Promise<SupportGrantOutcome> {
    const outcome = await decideSupportGrant(this, decision);
    if (!outcome.replayed && outcome.grant.status === "granted") this.rewardGranted(decision.gameId);
    return outcome;
  }

  /** Support expires, revokes, extends or makes claimable one of a player's offers (./support-actions); a repeat answers the current state. */
  supportOfferAction(ask: SupportOfferAsk): Promise<SupportOfferOutcome> {
    return supportOfferAction(this, ask);
  }

  /** Refuses a game or player this environment does not have (404), for support actions that do not lock the player. */
  requirePlayer(gameId: string, playerId: string): Promise<void> {
    return requirePlayer(this, gameId, playerId);
  }

  /** Support's re-offer: assigns a definition to a player the game has. */
  supportAssign(ask: Parameters<typeof supportAssign>[1]): Promise<Offer> {
    return supportAssign(this, ask);
  }

  listSupportGrants(gameId: string, filter: { status?: SupportGrantRow["status"]; playerId?: string; limit: number }) {
    return listSupportGrants(this.db, gameId, this.clock.now(), filter);
  }
  /** A player's timeline, newest first, one page (./timeline). */
  playerTimeline(gameId: string, playerId: string, query: TimelineQuery) {
    return playerTimeline(this.db, gameId, playerId, this.clock.now(), query);
  }


  supportThresholds(gameId: string) {
    return supportThresholds(this.db, gameId);
  }

  setSupportThresholds(gameId: string, rules: Parameters<typeof setSupportThresholds>[2]) {
    return setSupportThresholds(this.db, gameId, rules);
  }

  /** Stores `expired` on pending support grants past their time (the periodic sweep). */
  expireSupportGrants(): Promise<number> {
    return expireSupportGrants(this);
  }

  /** What a bulk compensation would grant (./bulk-compensation); nothing is written. */
  async previewBulkCompensation(ask: Omit<BulkAsk, "idempotencyKey">) {
    return (await resolveBulk(this, ask)).preview;
  }

  /** Asks for a bulk compensation: stored pending with its players until a second person approves it. */
  requestBulkCompensation(ask: BulkAsk): Promise<BulkOutcome> {
    return requestBulkCompensation(this, ask);
  }

  /** Approves (it starts running) or rejects a pending bulk compensation; never by its requester. */
  async decideBulkCompensation(decision: Parameters<typeof decideBulkCompensation>[1]): Promise<BulkOutcome> {
    const outcome = await decideBulkCompensation(this, decision);
    if (!outcome.replayed && outcome.job.status === "running") for (const listener of this.bulkListeners) listener();
    return outcome;
  }

  cancelBulkCompensation(cancel: Parameters<typeof cancelBulkCompensation>[1]): Promise<BulkOutcome> {
    return cancelBulkCompensation(this, cancel);
  }

  listBulkCompensations(gameId: string, filter: Parameters<typeof listBulkCompensations>[3]) {
    return listBulkCompensations(this.db, gameId, this.clock.now(), filter);
  }

  /** Stores `expired` on pending bulk compensations past their time (the periodic sweep). */
  expireBulkCompensations(): Promise<number> {
    return expireBulkCompensations(this);
  }

  /** Subscribes to "a bulk compensation was approved here" (this instance's runner starts at once; others poll). */
  onBulkApproved(listener: () => void): () => void {
    this.bulkListeners.add(listener);
    return () => this.bulkListeners.delete(listener);
  }

  /** Subscribes to "a reward.granted event was committed" (after commit; the delivery worker wakes on it). */
  onRewardGranted(listener: (gameId: string) => void): () => void {
    this.grantListeners.add(listener);
    return () => this.grantListeners.delete(listener);
  }

  /** Tells the listeners a reward.granted event was committed for the game (bulk runners write them outside the engine's methods). */
  rewardGranted(gameId: string): void {
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

  /** The player's last snapshot time and what was claimed since (the rewards page's balances). */
  balancesOf(gameId: string, playerId: string) {
    return balancesOf(this.db, gameId, playerId, this.clock.now());
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
