/**
 * The one per-player transaction every write about a player composes into. It locks the player's
 * row first (offers_players … FOR UPDATE), so a player's transitions are serial (slots are never
 * over-filled, event sequence ids follow commit order) while different players proceed in
 * parallel. The concern modules take the `PlayerTx` it hands out, so several of them compose in
 * one transaction; its domain events are delivered after commit.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { OffersError } from "../errors";
import type { OffersTx } from "../db";
import { offerEvents, offerInstances, players } from "../db/schema";
import type { OfferStatus } from "../schemas";
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
    const startSeq = player.eventSeq;
    const unit: PlayerTx = { tx, gameId, playerId, player, maxOfferSlots: game.maxOfferSlots, now, events: [] };
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
  core.publish(events);
  return result;
}

/** The player's next event sequence id, taken (written back when the transaction ends). */
export function nextSeq(unit: PlayerTx): number {
  unit.player.eventSeq += 1;
  return unit.player.eventSeq;
}

/** Records a transition: offer event row (history + replay log) and a pending domain event. */
export async function record(unit: PlayerTx, row: InstanceRow, from: OfferStatus | null, type: OfferEventType, cause: string, ruleVersion: number | null = null): Promise<void> {
  const seq = nextSeq(unit);
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
    ruleVersion,
  });
  unit.events.push(offerEvent(seq, row, from, type, cause, iso(unit.now)));
}

/** Moves an instance from its current status to `to` and records the transition. */
export async function move(
  unit: PlayerTx,
  row: InstanceRow,
  to: OfferStatus,
  type: OfferEventType,
  cause: string,
  extra: Partial<InstanceRow> = {},
): Promise<InstanceRow> {
  const [updated] = await unit.tx
    .update(offerInstances)
    .set({ ...extra, status: to, updatedAt: unit.now })
    .where(and(eq(offerInstances.instanceId, row.instanceId), eq(offerInstances.status, row.status)))
    .returning();
  if (!updated) return row; // moved meanwhile by a writer that did not lock the player (defensive)
  await record(unit, updated, row.status, type, cause);
  return updated;
}

export async function openInstances(unit: PlayerTx): Promise<InstanceRow[]> {
  return unit.tx
    .select()
    .from(offerInstances)
    .where(and(eq(offerInstances.gameId, unit.gameId), eq(offerInstances.playerId, unit.playerId), inArray(offerInstances.status, [...OPEN])))
    .orderBy(asc(offerInstances.createdAt), asc(offerInstances.instanceId));
}

/** Every instance of the player (final ones too), in assignment order. */
export async function allInstances(unit: PlayerTx): Promise<InstanceRow[]> {
  return unit.tx
    .select()
    .from(offerInstances)
    .where(and(eq(offerInstances.gameId, unit.gameId), eq(offerInstances.playerId, unit.playerId)))
    .orderBy(asc(offerInstances.createdAt), asc(offerInstances.instanceId));
}
