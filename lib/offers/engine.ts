/**
 * The offer engine: assignment into slots or the queue, queue promotion, trackers from snapshot
 * `out` deltas, viewing, expiry, exactly-once claims of offers and referrals.
 *
 * Concurrency rule: every write about a player runs in one transaction that first locks that
 * player's row (offers_players … FOR UPDATE). A player's transitions are therefore serial (slots
 * are never over-filled, event sequence ids follow commit order), while different players proceed
 * in parallel. An offer claim is that transaction in one statement (its hot path): it locks the
 * player's row first too, moves claimable → claimed with a conditional UPDATE and writes a ledger
 * row that is unique per source, so a claim is granted once even without the lock.
 *
 * Domain events are delivered to listeners (onOfferEvent) after the transaction commits.
 */
import { createHash, randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, lte, sql } from "drizzle-orm";
import { fromDriverRow, isUniqueViolation, rowsOf } from "../db";
import type { Clock } from "./clock";
import { systemClock } from "./clock";
import { OffersError } from "./errors";
import type { OffersDatabase, OffersExecutor, OffersTx } from "./db";
import { currencies, games, idempotencyKeys, offerDefinitions, offerEvents, offerInstances, players, referrals, rewardLedger } from "./db/schema";
import type {
  CompletionCondition,
  CompletionTrackers,
  Offer,
  OfferDefinition,
  OfferDefinitionInput,
  OfferStatus,
  PlayerData,
  PlayerReferral,
  PlayerSnapshot,
  PlayerSnapshotCore,
  Referral,
  ReferralCreateRequest,
  Reward,
  SnapshotPushRequest,
} from "./schemas";

export type OfferEventType = "queued" | "surfaced" | "viewed" | "claimable" | "claimed" | "expired";

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

export interface ClaimOutcome {
  rewards: Reward[];
  /** True when this is the stored answer of an earlier claim with the same Idempotency-Key. */
  replayed: boolean;
}

/** Fingerprint of a claim as parsed: a retry must ask for the same thing (whitespace and key order do not matter). */
function claimFingerprint(kind: "offer" | "referral", instanceId: string): string {
  return createHash("sha256").update(JSON.stringify([kind, instanceId])).digest("base64url");
}
const GAME_SETTINGS_TTL_MS = 5_000;

interface GameSettings {
  exists: boolean;
  maxOfferSlots: number;
  currencies: Array<typeof currencies.$inferSelect>;
}

type InstanceRow = typeof offerInstances.$inferSelect;
type PlayerRow = typeof players.$inferSelect;

const SLOT_HOLDING: OfferStatus[] = ["surfaced", "viewed", "claimable"];
const EXPIRABLE: OfferStatus[] = ["inQueue", "surfaced", "viewed"];
const OPEN: OfferStatus[] = ["inQueue", "surfaced", "viewed", "claimable"];

const iso = (d: Date) => d.toISOString();

/** Tracker key of each condition: its kind, or `kind:id` when the offer has two of that kind. */
export function trackerKeys(conditions: CompletionCondition[]): string[] {
  return conditions.map((c) => (conditions.filter((o) => o.kind === c.kind).length > 1 ? `${c.kind}:${c.id}` : c.kind));
}

function currencyOut(snapshot: Pick<PlayerRow, "currencies"> | undefined, currencyId: string): number {
  return snapshot?.currencies?.[currencyId]?.out ?? 0;
}

/** Progress of each condition, capped at its amount, measured from the baseline taken at surfacing. */
export function computeTrackers(
  conditions: CompletionCondition[],
  baseline: Record<string, number>,
  snapshot: Pick<PlayerRow, "currencies"> | undefined,
): { trackers: CompletionTrackers; complete: boolean } {
  const keys = trackerKeys(conditions);
  const trackers: CompletionTrackers = {};
  let complete = true;
  conditions.forEach((condition, i) => {
    const key = keys[i];
    let progress = 0;
    if (condition.kind === "spendCurrency") {
      progress = Math.max(0, currencyOut(snapshot, condition.id) - (baseline[key] ?? 0));
    }
    progress = Math.min(progress, condition.amount);
    trackers[key] = progress;
    if (progress < condition.amount) complete = false;
  });
  return { trackers, complete };
}

function baselineFor(conditions: CompletionCondition[] | null, snapshot: PlayerRow | undefined): Record<string, number> {
  if (!conditions?.length) return {};
  const keys = trackerKeys(conditions);
  const baseline: Record<string, number> = {};
  conditions.forEach((c, i) => {
    baseline[keys[i]] = currencyOut(snapshot, c.id);
  });
  return baseline;
}

function zeroTrackers(conditions: CompletionCondition[] | null): CompletionTrackers {
  const out: CompletionTrackers = {};
  if (conditions) for (const key of trackerKeys(conditions)) out[key] = 0;
  return out;
}

export function toOffer(row: InstanceRow): Offer {
  const hasConditions = !!row.completionConditions && row.completionConditions.length > 0;
  return {
    offerId: row.offerId,
    instanceId: row.instanceId,
    playerId: row.playerId,
    gameId: row.gameId,
    name: row.name,
    description: row.description,
    ...(row.image ? { image: row.image } : {}),
    status: row.status,
    realTime: row.realTime,
    rewards: row.rewards,
    ...(hasConditions ? { completionConditions: row.completionConditions!, completionTrackers: row.completionTrackers } : {}),
    createdAt: iso(row.createdAt),
    expiresAt: iso(row.expiresAt),
  };
}

function toDefinition(row: typeof offerDefinitions.$inferSelect): OfferDefinition {
  return {
    gameId: row.gameId,
    offerId: row.offerId,
    name: row.name,
    description: row.description,
    ...(row.image ? { image: row.image } : {}),
    rewards: row.rewards,
    ...(row.completionConditions ? { completionConditions: row.completionConditions } : {}),
    realTime: row.realTime,
    durationSeconds: row.durationSeconds,
    priority: row.priority,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function toReferral(row: typeof referrals.$inferSelect): Referral {
  return {
    instanceId: row.instanceId,
    gameId: row.gameId,
    referrerId: row.referrerId,
    refereeId: row.refereeId,
    rewards: row.rewards,
    status: row.status,
    createdAt: iso(row.createdAt),
  };
}

function preparedReads(db: OffersDatabase) {
  const gameId = sql.placeholder("gameId");
  const playerId = sql.placeholder("playerId");
  return {
    player: db.select().from(players).where(and(eq(players.gameId, gameId), eq(players.playerId, playerId))).prepare("offers_read_player"),
    offers: db
      .select()
      .from(offerInstances)
      .where(and(eq(offerInstances.gameId, gameId), eq(offerInstances.playerId, playerId)))
      .orderBy(asc(offerInstances.createdAt), asc(offerInstances.instanceId))
      .prepare("offers_read_offers"),
  };
}

/** The domain event of a transition of `row` (the offer after it). */
function offerEvent(seq: number, row: InstanceRow, from: OfferStatus | null, type: OfferEventType, cause: string, at: string): OfferEvent {
  return { seq, type, gameId: row.gameId, playerId: row.playerId, instanceId: row.instanceId, fromStatus: from, toStatus: row.status, cause, at, offer: toOffer(row) };
}

/** SQL: whether a player has offers that a freed slot or the clock would move (queued, or overdue). */
function unsettledOffers(gameId: string, playerId: string, nowIso: string) {
  return sql`exists (select 1 from offers_instances o
    where o.game_id = ${gameId} and o.player_id = ${playerId}
      and (o.status = 'inQueue' or (o.status in ('surfaced', 'viewed') and o.expires_at <= ${nowIso})))`;
}

export interface PlayerView {
  snapshot: PlayerSnapshot;
  playerData: PlayerData;
  offers: Offer[];
}

/** Per-transaction state: the locked player row and the events to publish after commit. */
interface Unit {
  tx: OffersTx;
  gameId: string;
  playerId: string;
  player: PlayerRow;
  maxOfferSlots: number;
  now: Date;
  events: OfferEvent[];
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

/** The row of one Idempotency-Key: its scope is the game, the player and the endpoint. */
function idempotencyKeyOf(gameId: string, playerId: string, remember: ClaimIdempotency) {
  return and(
    eq(idempotencyKeys.gameId, gameId),
    eq(idempotencyKeys.playerId, playerId),
    eq(idempotencyKeys.endpoint, remember.endpoint),
    eq(idempotencyKeys.key, remember.key),
  );
}

export class OffersEngine {
  readonly db: OffersDatabase;
  readonly clock: Clock;
  private readonly listeners = new Set<OfferEventListener>();
  private readonly onError: (error: unknown) => void;

  constructor(options: OffersEngineOptions) {
    this.db = options.db;
    this.clock = options.clock ?? systemClock;
    this.onError = options.onError ?? (() => {});
    this.reads = preparedReads(this.db);
  }

  /** The reads of every campaigns fetch, built once (named statements on PostgreSQL: parsed and planned once per connection). */
  private readonly reads: ReturnType<typeof preparedReads>;

  private readonly settingsCache = new Map<string, { at: number; value: Promise<GameSettings> }>();

  /**
   * A game's slot count and currencies, cached for a few seconds: they change rarely (by an
   * operator), and the campaigns read is the hot path of every player of every game.
   */
  private gameSettings(gameId: string): Promise<GameSettings> {
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

  private publish(events: OfferEvent[]): void {
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

  /** Runs fn in a transaction holding the player's row lock; publishes its events after commit. */
  private async withPlayer<T>(gameId: string, playerId: string, fn: (unit: Unit) => Promise<T>): Promise<T> {
    const events: OfferEvent[] = [];
    // Read before the transaction: on PGlite (one connection) a query outside an open transaction would wait for it.
    const game = await this.gameSettings(gameId);
    if (!game.exists) throw new OffersError("game-not-found", gameId);
    const result = await this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const lockPlayer = () =>
        tx
          .select()
          .from(players)
          .where(and(eq(players.gameId, gameId), eq(players.playerId, playerId)))
          .for("update");
      // The common case is a known player: one statement locks it. A new one is inserted first.
      let [player] = await lockPlayer();
      if (!player) {
        await tx.insert(players).values({ gameId, playerId, createdAt: now, updatedAt: now }).onConflictDoNothing();
        [player] = await lockPlayer();
      }
      const startSeq = player.eventSeq;
      const unit: Unit = { tx, gameId, playerId, player, maxOfferSlots: game.maxOfferSlots, now, events: [] };
      const value = await fn(unit);
      if (unit.player.eventSeq !== startSeq) {
        await tx
          .update(players)
          .set({ eventSeq: unit.player.eventSeq })
          .where(and(eq(players.gameId, gameId), eq(players.playerId, playerId)));
      }
      events.push(...unit.events);
      return value;
    });
    this.publish(events);
    return result;
  }

  /** Records a transition: offer event row (history + replay log) and a pending domain event. */
  private async record(unit: Unit, row: InstanceRow, from: OfferStatus | null, type: OfferEventType, cause: string): Promise<void> {
    unit.player.eventSeq += 1;
    const seq = unit.player.eventSeq;
    await unit.tx.insert(offerEvents).values({
      gameId: unit.gameId,
      playerId: unit.playerId,
      seq,
      instanceId: row.instanceId,
      type,
      fromStatus: from,
      toStatus: row.status,
      cause,
      at: unit.now,
    });
    unit.events.push(offerEvent(seq, row, from, type, cause, iso(unit.now)));
  }

  private async move(unit: Unit, row: InstanceRow, to: OfferStatus, type: OfferEventType, cause: string, extra: Partial<InstanceRow> = {}): Promise<InstanceRow> {
    const [updated] = await unit.tx
      .update(offerInstances)
      .set({ ...extra, status: to, updatedAt: unit.now })
      .where(and(eq(offerInstances.instanceId, row.instanceId), eq(offerInstances.status, row.status)))
      .returning();
    if (!updated) return row; // moved meanwhile by a writer that did not lock the player (defensive)
    await this.record(unit, updated, row.status, type, cause);
    return updated;
  }

  private async openInstances(unit: Unit): Promise<InstanceRow[]> {
    return unit.tx
      .select()
      .from(offerInstances)
      .where(and(eq(offerInstances.gameId, unit.gameId), eq(offerInstances.playerId, unit.playerId), inArray(offerInstances.status, OPEN)))
      .orderBy(asc(offerInstances.createdAt), asc(offerInstances.instanceId));
  }

  /**
   * Brings a player's offers up to date: expiry, trackers → claimable, queue promotion into free slots.
   * Promotion order: highest priority, then oldest assignment.
   */
  private async settle(unit: Unit, cause: string): Promise<void> {
    const open = await this.openInstances(unit);
    let held = 0;
    const queue: InstanceRow[] = [];
    for (const row of open) {
      if (EXPIRABLE.includes(row.status) && row.expiresAt.getTime() <= unit.now.getTime()) {
        await this.move(unit, row, "expired", "expired", "expiry");
        continue;
      }
      if (row.status === "inQueue") {
        queue.push(row);
        continue;
      }
      held += 1;
      if ((row.status === "surfaced" || row.status === "viewed") && row.completionConditions?.length) {
        await this.track(unit, row, cause);
      }
    }
    queue.sort((a, b) => b.priority - a.priority || a.createdAt.getTime() - b.createdAt.getTime() || a.instanceId.localeCompare(b.instanceId));
    for (const row of queue) {
      if (held >= unit.maxOfferSlots) break;
      await this.surface(unit, row, "slot-freed");
      held += 1;
    }
  }

  /** Recomputes trackers of one surfaced/viewed offer; moves it to claimable when every condition is met. */
  private async track(unit: Unit, row: InstanceRow, cause: string): Promise<InstanceRow> {
    const { trackers, complete } = computeTrackers(row.completionConditions ?? [], row.trackerBaseline, unit.player);
    if (complete) return this.move(unit, row, "claimable", "claimable", cause, { completionTrackers: trackers });
    if (JSON.stringify(trackers) !== JSON.stringify(row.completionTrackers)) {
      const [updated] = await unit.tx
        .update(offerInstances)
        .set({ completionTrackers: trackers, updatedAt: unit.now })
        .where(eq(offerInstances.instanceId, row.instanceId))
        .returning();
      return updated ?? row;
    }
    return row;
  }

  private surface(unit: Unit, row: InstanceRow, cause: string): Promise<InstanceRow> {
    return this.move(unit, row, "surfaced", "surfaced", cause, {
      surfacedAt: unit.now,
      expiresAt: new Date(unit.now.getTime() + row.durationSeconds * 1000),
      trackerBaseline: baselineFor(row.completionConditions, unit.player),
      completionTrackers: zeroTrackers(row.completionConditions),
    });
  }

  // ---------------- definitions ----------------

  async upsertDefinition(gameId: string, offerId: string, input: OfferDefinitionInput): Promise<OfferDefinition> {
    if (input.offerId !== undefined && input.offerId !== offerId) throw new OffersError("offer-id-mismatch");
    const now = this.clock.now();
    const values = {
      name: input.name,
      description: input.description ?? "",
      image: input.image ?? null,
      rewards: input.rewards,
      completionConditions: input.completionConditions?.length ? input.completionConditions : null,
      realTime: input.realTime ?? false,
      durationSeconds: input.durationSeconds,
      priority: input.priority ?? 0,
      updatedAt: now,
    };
    const [row] = await this.db
      .insert(offerDefinitions)
      .values({ gameId, offerId, ...values, createdAt: now })
      .onConflictDoUpdate({ target: [offerDefinitions.gameId, offerDefinitions.offerId], set: values })
      .returning();
    return toDefinition(row);
  }

  async getDefinition(gameId: string, offerId: string): Promise<OfferDefinition | null> {
    const [row] = await this.db
      .select()
      .from(offerDefinitions)
      .where(and(eq(offerDefinitions.gameId, gameId), eq(offerDefinitions.offerId, offerId)));
    return row ? toDefinition(row) : null;
  }

  // ---------------- assignment ----------------

  /** Assigns a definition to a player: surfaced when a slot is free, else inQueue. */
  async assignOffer(gameId: string, playerId: string, offerId: string): Promise<Offer> {
    return this.withPlayer(gameId, playerId, async (unit) => {
      const [definition] = await unit.tx
        .select()
        .from(offerDefinitions)
        .where(and(eq(offerDefinitions.gameId, gameId), eq(offerDefinitions.offerId, offerId)));
      if (!definition) throw new OffersError("offer-not-found", offerId);
      await this.settle(unit, "assign");
      const open = await this.openInstances(unit);
      if (open.some((row) => row.offerId === offerId)) throw new OffersError("offer-already-assigned", offerId);
      const held = open.filter((row) => SLOT_HOLDING.includes(row.status)).length;
      const surfaced = held < unit.maxOfferSlots;
      const conditions = definition.completionConditions?.length ? definition.completionConditions : null;
      const [row] = await unit.tx
        .insert(offerInstances)
        .values({
          instanceId: randomUUID(),
          gameId,
          playerId,
          offerId,
          status: surfaced ? "surfaced" : "inQueue",
          name: definition.name,
          description: definition.description,
          image: definition.image,
          rewards: definition.rewards,
          completionConditions: conditions,
          realTime: definition.realTime,
          durationSeconds: definition.durationSeconds,
          priority: definition.priority,
          trackerBaseline: surfaced ? baselineFor(conditions, unit.player) : {},
          completionTrackers: zeroTrackers(conditions),
          createdAt: unit.now,
          surfacedAt: surfaced ? unit.now : null,
          // A queued offer also has a deadline; surfacing restarts it for the full duration.
          expiresAt: new Date(unit.now.getTime() + definition.durationSeconds * 1000),
          updatedAt: unit.now,
        })
        .returning();
      await this.record(unit, row, null, surfaced ? "surfaced" : "queued", "assign");
      return toOffer(row);
    });
  }

  // ---------------- snapshots ----------------

  /** Upserts the player's snapshot (fields given replace, currencies/levels merge by key), then recomputes trackers. */
  async pushSnapshot(gameId: string, input: SnapshotPushRequest): Promise<PlayerSnapshot> {
    return this.withPlayer(gameId, input.playerId, async (unit) => {
      const p = unit.player;
      const next = {
        username: input.username ?? p.username,
        daysInGame: input.daysInGame ?? p.daysInGame,
        loginStreak: input.loginStreak ?? p.loginStreak,
        trustScore: input.trustScore ?? p.trustScore,
        currencies: { ...p.currencies, ...(input.currencies ?? {}) },
        levels: { ...p.levels, ...(input.levels ?? {}) },
        updatedAt: unit.now,
      };
      await unit.tx
        .update(players)
        .set(next)
        .where(and(eq(players.gameId, gameId), eq(players.playerId, input.playerId)));
      Object.assign(unit.player, next);
      await this.settle(unit, "snapshot");
      // A referral becomes claimable once the referred player shows up in the game.
      await unit.tx
        .update(referrals)
        .set({ status: "claimable", updatedAt: unit.now })
        .where(and(eq(referrals.gameId, gameId), eq(referrals.refereeId, input.playerId), eq(referrals.status, "pending")));
      return snapshotOf(unit.player);
    });
  }

  // ---------------- fetch ----------------

  /**
   * The player's offers, snapshot and currency data, after due transitions. With viewing, surfaced
   * offers become viewed, and viewed offers without conditions become claimable, in this same call.
   * The client view omits inQueue offers; the server view lists all.
   */
  async fetchCampaigns(gameId: string, playerId: string, options: { viewing: boolean; includeQueued: boolean }): Promise<PlayerView> {
    const now = this.clock.now();
    // Fast path: a read without lock when nothing would change (the common case under load). The
    // player's rows and the game's settings are read at once; the settings come from a short cache.
    const [[player], initialRows, settings] = await Promise.all([
      this.reads.player.execute({ gameId, playerId }),
      this.reads.offers.execute({ gameId, playerId }),
      this.gameSettings(gameId),
    ]);
    let rows = initialRows;
    const slots = settings.maxOfferSlots;
    const held = rows.filter((r) => SLOT_HOLDING.includes(r.status)).length;
    const needsWrite =
      rows.some((r) => EXPIRABLE.includes(r.status) && r.expiresAt.getTime() <= now.getTime()) ||
      (options.viewing && rows.some((r) => r.status === "surfaced" || (r.status === "viewed" && !r.completionConditions?.length))) ||
      (held < slots && rows.some((r) => r.status === "inQueue"));
    let current: PlayerRow | undefined = player;
    if (needsWrite) {
      const result = await this.withPlayer(gameId, playerId, async (unit) => {
        await this.settle(unit, options.viewing ? "viewingCampaigns" : "fetch");
        if (options.viewing) {
          for (const row of await this.openInstances(unit)) {
            let r = row;
            if (r.status === "surfaced") r = await this.move(unit, r, "viewed", "viewed", "viewingCampaigns");
            if (r.status === "viewed" && !r.completionConditions?.length) {
              await this.move(unit, r, "claimable", "claimable", "viewed-without-conditions");
            }
          }
        }
        const all = await unit.tx
          .select()
          .from(offerInstances)
          .where(and(eq(offerInstances.gameId, gameId), eq(offerInstances.playerId, playerId)))
          .orderBy(asc(offerInstances.createdAt), asc(offerInstances.instanceId));
        return { all, player: unit.player };
      });
      rows = result.all;
      current = result.player;
    }
    const snapshot = current ? snapshotOf(current) : emptySnapshot(gameId, playerId);
    return {
      snapshot,
      playerData: playerDataOf(snapshot, settings.currencies),
      offers: rows.filter((r) => options.includeQueued || r.status !== "inQueue").map(toOffer),
    };
  }

  // ---------------- claims ----------------

  /**
   * Exactly-once claim: one transaction moves claimable → claimed by a conditional update, writes
   * the ledger row (unique per source) and frees the slot (promoting the queue).
   */
  async claim(gameId: string, playerId: string, kind: "offer" | "referral", instanceId: string, idempotency?: ClaimIdempotency): Promise<Reward[]> {
    return (await this.claimOnce(gameId, playerId, kind, instanceId, idempotency)).rewards;
  }

  /**
   * A claim with an optional Idempotency-Key. The key is stored with the claim, in the same
   * statement (offers) or transaction (referrals), and only when the claim succeeds: a refused
   * claim changed nothing, so its key stays unused. A later claim with the key, within 24 h:
   * the same claim (kind, instanceId) answers the stored rewards (`replayed`); another claim is
   * idempotency-key-reused. Two claims with one key at once: the second waits for the player's
   * lock, then finds the first's key and answers the same.
   */
  async claimOnce(gameId: string, playerId: string, kind: "offer" | "referral", instanceId: string, idempotency?: ClaimIdempotency): Promise<ClaimOutcome> {
    const remember = idempotency ? { ...idempotency, fingerprint: claimFingerprint(kind, instanceId) } : undefined;
    if (kind === "referral") return this.claimReferral(gameId, playerId, instanceId, remember);
    try {
      return { rewards: await this.claimOffer(gameId, playerId, instanceId, remember), replayed: false };
    } catch (error) {
      if (!remember || !(error instanceof OffersError) || (error.code !== "offer-not-claimable" && error.code !== "offer-not-found")) throw error;
      // Refused: the offer may have been claimed with this very key (a retry, or a twin that held the
      // lock), or the key was used for another claim.
      const stored = await this.storedClaim(this.db, gameId, playerId, remember);
      if (stored === "expired") {
        // An expired key the sweep has not purged yet: it is free again.
        await this.forgetExpiredKey(this.db, gameId, playerId, remember);
        return { rewards: await this.claimOffer(gameId, playerId, instanceId, remember), replayed: false };
      }
      if (stored) return stored;
      throw error;
    }
  }

  /** The stored answer of a claim made with this key: replayed, or idempotency-key-reused; "expired" or null when none holds. */
  private async storedClaim(
    tx: OffersExecutor,
    gameId: string,
    playerId: string,
    remember: ClaimIdempotency & { fingerprint: string },
  ): Promise<ClaimOutcome | "expired" | null> {
    const [row] = await tx
      .select()
      .from(idempotencyKeys)
      .where(
        idempotencyKeyOf(gameId, playerId, remember),
      );
    if (!row) return null;
    if (row.expiresAt.getTime() <= this.clock.now().getTime()) return "expired";
    if (row.fingerprint !== remember.fingerprint) throw new OffersError("idempotency-key-reused", "this Idempotency-Key was sent with another claim");
    return { rewards: row.rewards, replayed: true };
  }

  private async forgetExpiredKey(tx: OffersExecutor, gameId: string, playerId: string, remember: ClaimIdempotency): Promise<void> {
    await tx
      .delete(idempotencyKeys)
      .where(
and(idempotencyKeyOf(gameId, playerId, remember), lte(idempotencyKeys.expiresAt, this.clock.now())),
      );
  }

  /** Deletes Idempotency-Keys older than 24 h (the periodic sweep). */
  async purgeIdempotencyKeys(): Promise<void> {
    await this.db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, this.clock.now()));
  }

  private async claimOffer(gameId: string, playerId: string, instanceId: string, remember?: ClaimIdempotency & { fingerprint: string }): Promise<Reward[]> {
    const game = await this.gameSettings(gameId);
    if (!game.exists) throw new OffersError("game-not-found", gameId);
    // The hot write path, in one statement (one round trip, atomic without BEGIN/COMMIT): lock the
    // player's row, move the instance claimable → claimed, write the ledger row (its unique index
    // refuses a second grant), the history row with the player's next sequence id, and the new
    // sequence id. It also answers whether the freed slot can change anything (queued or overdue
    // offers), and whether the player changed while this statement waited for the lock (`raced`:
    // its snapshot predates that change), in which case the slots are settled in a transaction.
    // With an Idempotency-Key, the key is stored by the same statement; a key stored meanwhile makes
    // its primary key refuse the insert, and the whole statement (claim included) is undone.
    const nowDate = this.clock.now();
    const now = iso(nowDate);
    const rememberKey = remember
      ? sql`, remembered as (
          insert into offers_idempotency_keys (game_id, player_id, endpoint, key, fingerprint, rewards, created_at, expires_at)
          select game_id, player_id, ${remember.endpoint}, ${remember.key}, ${remember.fingerprint}, rewards, ${now},
            ${iso(new Date(nowDate.getTime() + IDEMPOTENCY_KEY_TTL_MS))}
          from claimed
        )`
      : sql``;
    let result: unknown;
    try {
      result = await this.db.execute(sql`
        with locked as (
          select event_seq from offers_players where game_id = ${gameId} and player_id = ${playerId} for update
        ), claimed as (
          update offers_instances set status = 'claimed', claimed_at = ${now}, updated_at = ${now}
          where instance_id = ${instanceId} and game_id = ${gameId} and player_id = ${playerId} and status = 'claimable'
            and exists (select 1 from locked)
          returning *
        ), granted as (
          insert into offers_reward_ledger (game_id, player_id, source_kind, source_id, rewards, granted_at)
          select game_id, player_id, 'offer', instance_id, rewards, ${now} from claimed
        ), recorded as (
          insert into offers_events (game_id, player_id, seq, instance_id, type, from_status, to_status, cause, at)
          select c.game_id, c.player_id, l.event_seq + 1, c.instance_id, 'claimed', 'claimable', 'claimed', 'claim', ${now}
          from claimed c, locked l
        ), sequenced as (
          update offers_players p set event_seq = l.event_seq + 1 from locked l
          where p.game_id = ${gameId} and p.player_id = ${playerId} and exists (select 1 from claimed)
        )${rememberKey}
        select to_jsonb(c) as row, l.event_seq + 1 as seq,
          l.event_seq <> (select event_seq from offers_players where game_id = ${gameId} and player_id = ${playerId}) as raced,
          ${unsettledOffers(gameId, playerId, now)} as unsettled
        from claimed c, locked l`);
    } catch (error) {
      // The ledger's unique index: unreachable while the conditional update holds; were it reached, the
      // statement is undone and nothing is granted twice. The Idempotency-Key's primary key: the key
      // was stored meanwhile by another claim, which claimOnce answers from.
      if (isUniqueViolation(error)) throw new OffersError("offer-not-claimable", instanceId);
      throw error;
    }
    const [outcome] = rowsOf<{ row: Record<string, unknown>; seq: number | string; raced: boolean; unsettled: boolean }>(result);
    if (!outcome) {
      const [existing] = await this.db
        .select({ status: offerInstances.status })
        .from(offerInstances)
        .where(and(eq(offerInstances.instanceId, instanceId), eq(offerInstances.gameId, gameId), eq(offerInstances.playerId, playerId)));
      throw new OffersError(existing ? "offer-not-claimable" : "offer-not-found", instanceId);
    }
    const claimed = fromDriverRow(offerInstances, outcome.row);
    this.publish([offerEvent(Number(outcome.seq), claimed, "claimable", "claimed", "claim", now)]);
    // The claim is granted and answered whatever happens next; a failed settle is retried by the next read or sweep.
    await this.settleAfterClaim(gameId, playerId, now, outcome).catch((error: unknown) => this.onError(error));
    return claimed.rewards;
  }

  private async settleAfterClaim(gameId: string, playerId: string, now: string, outcome: { raced: boolean; unsettled: boolean }): Promise<void> {
    let unsettled = outcome.unsettled;
    if (!unsettled && outcome.raced) {
      // The claim waited for the lock, so its answer predates that change: ask again, now that the
      // claim is committed (a change committed after this sees the freed slot itself).
      const [fresh] = rowsOf<{ unsettled: boolean }>(await this.db.execute(sql`select ${unsettledOffers(gameId, playerId, now)} as unsettled`));
      unsettled = fresh?.unsettled ?? false;
    }
    if (unsettled) await this.withPlayer(gameId, playerId, (unit) => this.settle(unit, "claim"));
  }

  private async claimReferral(gameId: string, playerId: string, instanceId: string, remember?: ClaimIdempotency & { fingerprint: string }): Promise<ClaimOutcome> {
    return this.withPlayer(gameId, playerId, async (unit) => {
      if (remember) {
        // Under the player's lock: a claim with the same key has committed or has not started.
        const stored = await this.storedClaim(unit.tx, gameId, playerId, remember);
        if (stored === "expired") await this.forgetExpiredKey(unit.tx, gameId, playerId, remember);
        else if (stored) return stored;
      }
      const [claimed] = await unit.tx
        .update(referrals)
        .set({ status: "claimed", claimedAt: unit.now, updatedAt: unit.now })
        .where(
          and(
            eq(referrals.instanceId, instanceId),
            eq(referrals.gameId, gameId),
            eq(referrals.referrerId, playerId),
            eq(referrals.status, "claimable"),
          ),
        )
        .returning();
      if (!claimed) {
        const [existing] = await unit.tx
          .select({ status: referrals.status })
          .from(referrals)
          .where(and(eq(referrals.instanceId, instanceId), eq(referrals.gameId, gameId), eq(referrals.referrerId, playerId)));
        throw new OffersError(existing ? "offer-not-claimable" : "offer-not-found", instanceId);
      }
      await this.grant(unit.tx, { gameId, playerId, sourceKind: "referral", sourceId: instanceId, rewards: claimed.rewards, now: unit.now });
      if (remember) {
        await unit.tx.insert(idempotencyKeys).values({
          gameId,
          playerId,
          endpoint: remember.endpoint,
          key: remember.key,
          fingerprint: remember.fingerprint,
          rewards: claimed.rewards,
          createdAt: unit.now,
          expiresAt: new Date(unit.now.getTime() + IDEMPOTENCY_KEY_TTL_MS),
        });
      }
      return { rewards: claimed.rewards, replayed: false };
    });
  }

  private async grant(
    tx: OffersExecutor,
    entry: { gameId: string; playerId: string; sourceKind: "offer" | "referral"; sourceId: string; rewards: Reward[]; now: Date },
  ): Promise<void> {
    const inserted = await tx
      .insert(rewardLedger)
      .values({ gameId: entry.gameId, playerId: entry.playerId, sourceKind: entry.sourceKind, sourceId: entry.sourceId, rewards: entry.rewards, grantedAt: entry.now })
      .onConflictDoNothing()
      .returning({ id: rewardLedger.id });
    // Unreachable while the conditional update holds; if it ever were reached, refuse rather than grant twice.
    if (inserted.length === 0) throw new OffersError("offer-not-claimable", entry.sourceId);
  }

  // ---------------- referrals ----------------

  /** Creates a referral; claimable at once when the referee already has a snapshot, else pending. */
  async createReferral(gameId: string, input: ReferralCreateRequest): Promise<Referral> {
    if (input.referrerId === input.refereeId) throw new OffersError("referral-self");
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const [referee] = await tx
        .select({ playerId: players.playerId })
        .from(players)
        .where(and(eq(players.gameId, gameId), eq(players.playerId, input.refereeId)));
      const [row] = await tx
        .insert(referrals)
        .values({
          instanceId: randomUUID(),
          gameId,
          referrerId: input.referrerId,
          refereeId: input.refereeId,
          rewards: input.rewards,
          status: referee ? "claimable" : "pending",
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw new OffersError("referral-exists", input.refereeId);
      return toReferral(row);
    });
  }

  /** The referrals a player made (as referrer), newest first, with each friend's username once known; at most `limit`. */
  async referralsOf(gameId: string, referrerId: string, limit = 200): Promise<PlayerReferral[]> {
    const rows = await this.db
      .select({ referral: referrals, refereeUsername: players.username })
      .from(referrals)
      .leftJoin(players, and(eq(players.gameId, referrals.gameId), eq(players.playerId, referrals.refereeId)))
      .where(and(eq(referrals.gameId, gameId), eq(referrals.referrerId, referrerId)))
      .orderBy(desc(referrals.createdAt), asc(referrals.instanceId))
      .limit(limit);
    return rows.map((row) => ({ ...toReferral(row.referral), ...(row.refereeUsername ? { refereeUsername: row.refereeUsername } : {}) }));
  }

  // ---------------- expiry sweep ----------------

  /** Expires overdue offers of every player (and promotes their queues). Answers how many players were settled. */
  async sweepExpired(limit = 500): Promise<number> {
    const now = this.clock.now();
    const due = await this.db
      .selectDistinct({ gameId: offerInstances.gameId, playerId: offerInstances.playerId })
      .from(offerInstances)
      .where(and(inArray(offerInstances.status, EXPIRABLE), lte(offerInstances.expiresAt, now)))
      .limit(limit);
    for (const { gameId, playerId } of due) {
      await this.withPlayer(gameId, playerId, (unit) => this.settle(unit, "expiry-sweep"));
    }
    return due.length;
  }

  // ---------------- history (for the admin API and SSE replay) ----------------

  /** A player's events after a sequence id, oldest first. */
  async eventsSince(gameId: string, playerId: string, afterSeq: number, limit = 500) {
    return this.db
      .select()
      .from(offerEvents)
      .where(and(eq(offerEvents.gameId, gameId), eq(offerEvents.playerId, playerId), sql`${offerEvents.seq} > ${afterSeq}`))
      .orderBy(asc(offerEvents.seq))
      .limit(limit);
  }

  async ledgerOf(gameId: string, playerId: string) {
    return this.db
      .select()
      .from(rewardLedger)
      .where(and(eq(rewardLedger.gameId, gameId), eq(rewardLedger.playerId, playerId)))
      .orderBy(asc(rewardLedger.id));
  }
}

function snapshotCoreOf(row: PlayerRow): PlayerSnapshotCore {
  return {
    _id: `${row.gameId}:${row.playerId}`,
    gameId: row.gameId,
    playerId: row.playerId,
    username: row.username,
    daysInGame: row.daysInGame,
    loginStreak: row.loginStreak,
    trustScore: row.trustScore,
  };
}

export function snapshotOf(row: PlayerRow): PlayerSnapshot {
  return { ...snapshotCoreOf(row), currencies: row.currencies, levels: row.levels };
}

function emptySnapshot(gameId: string, playerId: string): PlayerSnapshot {
  return { _id: `${gameId}:${playerId}`, gameId, playerId, username: "", daysInGame: 0, loginStreak: 0, trustScore: 0, currencies: {}, levels: {} };
}

/** The seven-field snapshot nested in Player. */
export function coreOf(snapshot: PlayerSnapshot): PlayerSnapshotCore {
  const { _id, gameId, playerId, username, daysInGame, loginStreak, trustScore } = snapshot;
  return { _id, gameId, playerId, username, daysInGame, loginStreak, trustScore };
}

/** Every currency of the game with the player's balance, plus currencies the snapshot has that the game did not declare. */
function playerDataOf(snapshot: PlayerSnapshot, gameCurrencies: Array<typeof currencies.$inferSelect>): PlayerData {
  const out: PlayerData["currencies"] = {};
  for (const c of gameCurrencies) {
    out[c.currencyId] = { id: c.currencyId, name: c.name, balance: snapshot.currencies[c.currencyId]?.balance ?? 0, image: c.image };
  }
  for (const [id, value] of Object.entries(snapshot.currencies)) {
    if (!out[id]) out[id] = { id, name: id, balance: value.balance, image: "" };
  }
  return { gameId: snapshot.gameId, playerId: snapshot.playerId, currencies: out };
}
