/** What a player's balances mean: the game's last snapshot, and what the reward ledger granted since. */
import { and, eq, gt } from "drizzle-orm";
import type { OffersDatabase } from "../db";
import { players, rewardLedger } from "../db/schema";
import type { ClientBalancesResponse } from "../contract";

/**
 * The time of the player's last snapshot (the players row is written by every snapshot push and nothing
 * else that changes its time), and the amounts per reward id the ledger granted after it. A player
 * without a row has had no snapshot: nothing granted yet either.
 */
export async function balancesOf(db: OffersDatabase, gameId: string, playerId: string, now: Date): Promise<ClientBalancesResponse> {
  const [player] = await db
    .select({ updatedAt: players.updatedAt })
    .from(players)
    .where(and(eq(players.gameId, gameId), eq(players.playerId, playerId)));
  if (!player) return { snapshotAt: now.toISOString(), claimedSinceSnapshot: {} };
  const grants = await db
    .select({ rewards: rewardLedger.rewards })
    .from(rewardLedger)
    .where(and(eq(rewardLedger.gameId, gameId), eq(rewardLedger.playerId, playerId), gt(rewardLedger.grantedAt, player.updatedAt)));
  const claimedSinceSnapshot: Record<string, number> = {};
  for (const grant of grants) for (const r of grant.rewards) claimedSinceSnapshot[r.rewardId] = (claimedSinceSnapshot[r.rewardId] ?? 0) + r.amount;
  return { snapshotAt: player.updatedAt.toISOString(), claimedSinceSnapshot };
}
