/** A player's snapshot push, inside the player's transaction: upsert, trackers, pending referrals. */
import { and, eq } from "drizzle-orm";
import { players } from "../db/schema";
import type { PlayerSnapshot, SnapshotPushRequest } from "../contract";
import { referralsClaimableOnArrival } from "./referrals";
import { settle } from "./settle";
import { OPEN } from "./slots";
import { byAssignment, openAndPastInstances, type PlayerTx } from "./transaction";
import type { InstanceRow } from "./types";
import { snapshotOf } from "./views";

/**
 * Fields given replace, currencies/levels merge by key; then trackers are recomputed. Answers the
 * stored snapshot and the player's instances after the settle: the open ones, and every one of
 * `pastOf` (the offers a caller evaluates next, e.g. targeted definitions), read in one statement.
 */
export async function pushSnapshotIn(unit: PlayerTx, input: Omit<SnapshotPushRequest, "playerId">, pastOf: readonly string[] = []): Promise<{ snapshot: PlayerSnapshot; instances: InstanceRow[] }> {
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
  // The snapshot's write and the referrals' arrival ride in the read of the player's offers: one
  // round trip instead of three (the player's row is already locked; neither changes what is read).
  const writes = [
    unit.tx.$with("snapshot_written").as(
      unit.tx
        .update(players)
        .set(next)
        .where(and(eq(players.gameId, unit.gameId), eq(players.playerId, unit.playerId)))
        .returning({ playerId: players.playerId }),
    ),
    unit.tx.$with("referrals_arrived").as(referralsClaimableOnArrival(unit)),
  ];
  const read = await openAndPastInstances(unit, pastOf, writes);
  Object.assign(unit.player, next);
  const settled = await settle(unit, "snapshot", read.filter((row) => OPEN.includes(row.status)));
  const past = read.filter((row) => !OPEN.includes(row.status));
  return { snapshot: snapshotOf(unit.player), instances: [...past, ...settled].sort(byAssignment) };
}
