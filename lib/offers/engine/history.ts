/** History reads (admin API and the event stream's replay): offer events and the reward ledger. */
import { and, asc, eq, sql } from "drizzle-orm";
import type { OffersDatabase } from "../db";
import { offerEvents, rewardLedger } from "../db/schema";

/** A player's events after a sequence id, oldest first. */
export async function eventsSince(db: OffersDatabase, gameId: string, playerId: string, afterSeq: number, limit = 500) {
  return db
    .select()
    .from(offerEvents)
    .where(and(eq(offerEvents.gameId, gameId), eq(offerEvents.playerId, playerId), sql`${offerEvents.seq} > ${afterSeq}`))
    .orderBy(asc(offerEvents.seq))
    .limit(limit);
}

export async function ledgerOf(db: OffersDatabase, gameId: string, playerId: string) {
  return db
    .select()
    .from(rewardLedger)
    .where(and(eq(rewardLedger.gameId, gameId), eq(rewardLedger.playerId, playerId)))
    .orderBy(asc(rewardLedger.id));
}
