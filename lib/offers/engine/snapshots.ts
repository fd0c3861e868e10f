/** A player's snapshot push, inside the player's transaction: upsert, its activity row, trackers, pending referrals. */
import { and, eq } from "drizzle-orm";
import { playerActivity, players } from "../db/schema";
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
  // The timeline's record of the push: how much the game server sent, not what (the snapshot holds that).
  const pushed = Object.entries(input).filter(([field, value]) => field !== "playerId" && value !== undefined).length;
  const bytes = Buffer.byteLength(JSON.stringify(input));
  // The snapshot's write, its activity row and the referrals' arrival ride in the read of the player's
  // offers: one round trip instead of four (the player's row is already locked; none changes what is read).
  const writes = [
    unit.tx.$with("snapshot_written").as(
      unit.tx
        .update(players)
        .set(next)
        .where(and(eq(players.gameId, unit.gameId), eq(players.playerId, unit.playerId)))
        .returning({ playerId: players.playerId }),
    ),
    unit.tx.$with("referrals_arrived").as(referralsClaimableOnArrival(unit)),
    unit.tx.$with("activity_written").as(
      unit.tx
        .insert(playerActivity)
        .values({ gameId: unit.gameId, playerId: unit.playerId, kind: "snapshot", at: unit.now, detail: { fields: pushed, bytes } })
        .returning({ id: playerActivity.id }),
    ),
  ];
  const read = await openAndPastInstances(unit, pastOf, writes);
  Object.assign(unit.player, next);
  const settled = await settle(unit, "snapshot", read.filter((row) => OPEN.includes(row.status)));
  const past = read.filter((row) => !OPEN.includes(row.status));
  return { snapshot: snapshotOf(unit.player), instances: [...past, ...settled].sort(byAssignment) };
}
