/** Referrals: creation, the referrer's list, and pending → claimable when the referee arrives. (Their claim is in ./claims.) */
import { randomUUID } from "node:crypto";
import { and, asc, desc, eq } from "drizzle-orm";
import { OffersError } from "../errors";
import type { OffersDatabase } from "../db";
import { players, referrals } from "../db/schema";
import type { PlayerReferral, Referral, ReferralCreateRequest } from "../contract";
import type { PlayerTx } from "./transaction";
import { toReferral } from "./views";

/** Creates a referral; claimable at once when the referee already has a snapshot, else pending. */
export async function createReferral(db: OffersDatabase, now: Date, gameId: string, input: ReferralCreateRequest): Promise<Referral> {
  if (input.referrerId === input.refereeId) throw new OffersError("referral-self");
  return db.transaction(async (tx) => {
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
export async function referralsOf(db: OffersDatabase, gameId: string, referrerId: string, limit = 200): Promise<PlayerReferral[]> {
  const rows = await db
    .select({ referral: referrals, refereeUsername: players.username })
    .from(referrals)
    .leftJoin(players, and(eq(players.gameId, referrals.gameId), eq(players.playerId, referrals.refereeId)))
    .where(and(eq(referrals.gameId, gameId), eq(referrals.referrerId, referrerId)))
    .orderBy(desc(referrals.createdAt), asc(referrals.instanceId))
    .limit(limit);
  return rows.map((row) => ({ ...toReferral(row.referral), ...(row.refereeUsername ? { refereeUsername: row.refereeUsername } : {}) }));
}

/**
 * A referral becomes claimable once the referred player shows up in the game (their first snapshot).
 * The write, not run: the snapshot push sends it within its read of the player's offers (./snapshots).
 */
export function referralsClaimableOnArrival(unit: PlayerTx) {
  return unit.tx
    .update(referrals)
    .set({ status: "claimable", updatedAt: unit.now })
    .where(and(eq(referrals.gameId, unit.gameId), eq(referrals.refereeId, unit.playerId), eq(referrals.status, "pending")))
    .returning({ instanceId: referrals.instanceId });
}
