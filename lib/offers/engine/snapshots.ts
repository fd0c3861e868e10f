/** A player's snapshot push, inside the player's transaction: upsert, trackers, pending referrals. */
import { and, eq } from "drizzle-orm";
import { players } from "../db/schema";
import type { PlayerSnapshot, SnapshotPushRequest } from "../schemas";
import { referralsClaimableOnArrival } from "./referrals";
import { settle } from "./settle";
import type { PlayerTx } from "./transaction";
import { snapshotOf } from "./views";

/** Fields given replace, currencies/levels merge by key; then trackers are recomputed. */
export async function pushSnapshotIn(unit: PlayerTx, input: Omit<SnapshotPushRequest, "playerId">): Promise<PlayerSnapshot> {
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
    .where(and(eq(players.gameId, unit.gameId), eq(players.playerId, unit.playerId)));
  Object.assign(unit.player, next);
  await settle(unit, "snapshot");
  await referralsClaimableOnArrival(unit);
  return snapshotOf(unit.player);
}
