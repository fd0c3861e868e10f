/**
 * The one per-player transaction every write about a player composes into. It locks the player's
 * row first (offers_players … FOR UPDATE), so a player's transitions are serial (slots are never
 * over-filled, event sequence ids follow commit order) while different players proceed in
 * parallel. The concern modules take the `PlayerTx` it hands out, so several of them compose in
 * one transaction; its domain events are delivered after commit.
 */
import { and, asc, eq, inArray, or, sql, type WithSubquery } from "drizzle-orm";
import { OffersError } from "../errors";
import { inTextList, type OffersTx } from "../db";
import { offerEvents, offerInstances, players } from "../db/schema";
import type { OfferStatus } from "../contract";
import { OPEN } from "./slots";
import type { EngineCore, InstanceRow, OfferEvent, OfferEventType, PlayerRow } from "./types";
import { iso, offerEvent } from "./views";

/** A player's transaction: the locked player row, the time of the transaction and the events to publish after commit. */
export interface PlayerTx {
  tx: OffersTx;
  gameId: string;
  playerId: string;
  player: PlayerRow;
  maxOfferSlots: number;
  now: Date;
  events: OfferEvent[];
  /** The event sequence id the player's row holds in this transaction (recordAll writes it with the events). */
  storedSeq: number;
}

/** Runs fn in a transaction holding the player's row lock (the player is created if new); publishes its events after commit. */
export async function withPlayerTransaction<T>(core: EngineCore, gameId: string, playerId: string, fn: (tx: PlayerTx) => Promise<T>): Promise<T> {
  const events: OfferEvent[] = [];
  // Read before the transaction: on PGlite (one connection) a query outside an open transaction would wait for it.
  const game = await core.gameSettings(gameId);
  if (!game.exists) throw new OffersError("game-not-found", gameId);
  const result = await core.db.transaction(async (tx) => {
    const now = core.clock.now();
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
    const unit: PlayerTx = { tx, gameId, playerId, player, maxOfferSlots: game.maxOfferSlots, now, events: [], storedSeq: player.eventSeq };
    const value = await fn(unit);
    if (unit.player.eventSeq !== unit.storedSeq) {
      await tx
        .update(players)
        .set({ eventSeq: unit.player.eventSeq })
        .where(and(eq(players.gameId, gameId), eq(players.playerId, playerId)));
    }
    events.push(...unit.events);
    return value;
  });
  core.publish(events);
  return result;
}

/**
 * Runs fn in ONE transaction over several existing players of a game (bulk work: surfacing jobs).
 * Their rows are locked together, in id order, before anything else, so two such transactions
 * cannot deadlock each other or a single player's transaction; fn gets one PlayerTx per player
 * (players without a row are left out) and composes the same `…In` operations inside. Sequence ids
 * are written back in one statement; events are published after commit.
 */
export async function withPlayersTransaction<T>(
  core: EngineCore,
  gameId: string,
  playerIds: readonly string[],
  fn: (units: PlayerTx[], tx: OffersTx) => Promise<T>,
): Promise<T> {
  const events: OfferEvent[] = [];
  const game = await core.gameSettings(gameId);
  if (!game.exists) throw new OffersError("game-not-found", gameId);
  const result = await core.db.transaction(async (tx) => {
    const now = core.clock.now();
    const rows = playerIds.length
      ? await tx
          .select()
          .from(players)
          .where(and(eq(players.gameId, gameId), inTextList(players.playerId, playerIds)))
          .orderBy(asc(players.playerId))
          .for("update")
      : [];
    const units: PlayerTx[] = rows.map((player) => ({ tx, gameId, playerId: player.playerId, player, maxOfferSlots: game.maxOfferSlots, now, events: [], storedSeq: player.eventSeq }));
    const value = await fn(units, tx);
    const moved = units.filter((unit) => unit.player.eventSeq !== unit.storedSeq);
    if (moved.length) {
      const list = sql.join(
        moved.map((unit) => sql`(${unit.playerId}::text, ${unit.player.eventSeq}::bigint)`),
        sql`, `,
      );
      await tx.execute(sql`update ${players} p set event_seq = v.seq from (values ${list}) as v(player_id, seq) where p.game_id = ${gameId} and p.player_id = v.player_id`);
    }
    for (const unit of units) events.push(...unit.events);
    return value;
  });
  core.publish(events);
  return result;
}

/** The player's next event sequence id, taken (written back when the transaction ends). */
export function nextSeq(unit: PlayerTx): number {
  unit.player.eventSeq += 1;
  return unit.player.eventSeq;
}

/** A transition to record: the instance after it, where it came from, and why. */
export interface Transition {
  row: InstanceRow;
  from: OfferStatus | null;
  type: OfferEventType;
  cause: string;
  /** For cause `rule`: the version of the definition whose rule assigned the offer. */
  ruleVersion?: number | null;
  /** For cause `support`: who acted and why. */
  note?: SupportNote;
}

/** Who made a support action and why, kept on its history rows. */
export interface SupportNote {
  actor: string;
  reason: string;
}

/**
 * Records transitions in order: offer event rows (history + replay log) and pending domain events.
 * One statement, which also stores the player's new sequence id (so the transaction's end has
 * nothing left to write unless something took an id since).
 */
export async function recordAll(unit: PlayerTx, transitions: readonly Transition[]): Promise<void> {
  if (transitions.length === 0) return;
  const rows = transitions.map((t) => ({ ...t, seq: nextSeq(unit) }));
  const seq = unit.player.eventSeq;
  const storeSeq = unit.tx.$with("seq_stored").as(
    unit.tx
      .update(players)
      .set({ eventSeq: seq })
      .where(and(eq(players.gameId, unit.gameId), eq(players.playerId, unit.playerId)))
      .returning({ playerId: players.playerId }),
  );
  await unit.tx.with(storeSeq).insert(offerEvents).values(
    rows.map((t) => ({
      gameId: unit.gameId,
      playerId: unit.playerId,
      seq: t.seq,
      instanceId: t.row.instanceId,
      type: t.type,
      fromStatus: t.from,
      toStatus: t.row.status,
      cause: t.cause,
      at: unit.now,
      ruleVersion: t.ruleVersion ?? null,
      actor: t.note?.actor ?? null,
      reason: t.note?.reason ?? null,
    })),
  );
  unit.storedSeq = seq;
  for (const t of rows) unit.events.push(offerEvent(t.seq, t.row, t.from, t.type, t.cause, iso(unit.now), t.note?.actor ?? null));
}

/** Records one transition (see recordAll). */
export function record(unit: PlayerTx, row: InstanceRow, from: OfferStatus | null, type: OfferEventType, cause: string): Promise<void> {
  return recordAll(unit, [{ row, from, type, cause }]);
}

/** Moves an instance from its current status to `to` and records the transition. */
export function move(
  unit: PlayerTx,
  row: InstanceRow,
  to: OfferStatus,
  type: OfferEventType,
  cause: string,
  extra: Partial<InstanceRow> = {},
  note?: SupportNote,
): Promise<InstanceRow> {
  return moveThrough(unit, row, [{ to, type, cause, note }], extra);
}

/** One step of moveThrough. */
export interface MoveStep {
  to: OfferStatus;
  type: OfferEventType;
  cause: string;
  note?: SupportNote;
}

/**
 * Moves an instance through several statuses at once (e.g. surfaced → viewed → claimable): one
 * update to the last, and every step recorded in order, each event with its own status.
 */
export async function moveThrough(unit: PlayerTx, row: InstanceRow, steps: readonly MoveStep[], extra: Partial<InstanceRow> = {}): Promise<InstanceRow> {
  if (steps.length === 0) return row;
  const [updated] = await unit.tx
    .update(offerInstances)
    .set({ ...extra, status: steps[steps.length - 1]!.to, updatedAt: unit.now })
    .where(and(eq(offerInstances.instanceId, row.instanceId), eq(offerInstances.status, row.status)))
    .returning();
  if (!updated) return row; // moved meanwhile by a writer that did not lock the player (defensive)
  await recordAll(
    unit,
    steps.map((step, i) => ({ row: { ...updated, status: step.to }, from: i === 0 ? row.status : steps[i - 1]!.to, type: step.type, cause: step.cause, note: step.note })),
  );
  return updated;
}

export async function openInstances(unit: PlayerTx): Promise<InstanceRow[]> {
  return unit.tx
    .select()
    .from(offerInstances)
    .where(and(eq(offerInstances.gameId, unit.gameId), eq(offerInstances.playerId, unit.playerId), inArray(offerInstances.status, [...OPEN])))
    .orderBy(asc(offerInstances.createdAt), asc(offerInstances.instanceId));
}

/**
 * The player's open instances and every instance (final ones too) of the given offers, in assignment
 * order. `writes`: data-modifying CTEs of other tables that ride in the same statement (one round
 * trip); they see the same snapshot and do not change what this reads.
 */
export async function openAndPastInstances(unit: PlayerTx, offerIds: readonly string[], writes: WithSubquery[] = []): Promise<InstanceRow[]> {
  const status = inArray(offerInstances.status, [...OPEN]);
  return unit.tx
    .with(...writes)
    .select()
    .from(offerInstances)
    .where(
      and(
        eq(offerInstances.gameId, unit.gameId),
        eq(offerInstances.playerId, unit.playerId),
        offerIds.length === 0 ? status : or(status, inTextList(offerInstances.offerId, offerIds)),
      ),
    )
    .orderBy(asc(offerInstances.createdAt), asc(offerInstances.instanceId));
}

/** Assignment order (ties, instances created in one transaction, by id). */
export const byAssignment = (a: InstanceRow, b: InstanceRow) => a.createdAt.getTime() - b.createdAt.getTime() || a.instanceId.localeCompare(b.instanceId);

/** Every instance of the player (final ones too), in assignment order. */
export async function allInstances(unit: PlayerTx): Promise<InstanceRow[]> {
  return unit.tx
    .select()
    .from(offerInstances)
    .where(and(eq(offerInstances.gameId, unit.gameId), eq(offerInstances.playerId, unit.playerId)))
    .orderBy(asc(offerInstances.createdAt), asc(offerInstances.instanceId));
}
