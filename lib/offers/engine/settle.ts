/** Applies the slot rules (./slots) inside a player's transaction: expiry, trackers → claimable, queue promotion. */
import { sql } from "drizzle-orm";
import { offerInstances } from "../db/schema";
import { planSettle } from "./slots";
import { computeTrackers, baselineFor, zeroTrackers } from "./trackers";
import { move, openInstances, type PlayerTx } from "./transaction";
import type { InstanceRow } from "./types";

/**
 * Brings a player's offers up to date. Promotion order: highest priority, then oldest assignment.
 * `open`: the player's open offers when the caller has read them in this transaction. Answers those
 * offers after the settle (expired ones included, with their new status), in assignment order.
 */
export async function settle(unit: PlayerTx, cause: string, open?: InstanceRow[]): Promise<InstanceRow[]> {
  const before = open ?? (await openInstances(unit));
  const plan = planSettle(before, unit.now, unit.maxOfferSlots);
  const after = new Map(before.map((row) => [row.instanceId, row]));
  // Trackers that moved without completing: written together, in one statement, after the loop.
  const progressed: InstanceRow[] = [];
  for (const step of plan.steps) {
    if (step.kind === "expire") {
      after.set(step.offer.instanceId, await move(unit, step.offer, "expired", "expired", "expiry"));
      continue;
    }
    const row = step.offer;
    const { trackers, complete } = computeTrackers(row.completionConditions ?? [], row.trackerBaseline, unit.player);
    if (complete) after.set(row.instanceId, await move(unit, row, "claimable", "claimable", cause, { completionTrackers: trackers }));
    else if (JSON.stringify(trackers) !== JSON.stringify(row.completionTrackers)) progressed.push({ ...row, completionTrackers: trackers, updatedAt: unit.now });
  }
  await writeTrackers(unit, progressed);
  for (const row of progressed) after.set(row.instanceId, row);
  for (const row of plan.promote) after.set(row.instanceId, await surface(unit, row, "slot-freed"));
  return [...after.values()];
}

/** Stores the trackers of several offers in one statement (no transition: nothing to record). */
async function writeTrackers(unit: PlayerTx, rows: readonly InstanceRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map((row) => sql`(${row.instanceId}::text, ${JSON.stringify(row.completionTrackers)}::jsonb)`),
    sql`, `,
  );
  await unit.tx.execute(sql`
    update ${offerInstances} i set completion_trackers = v.trackers, updated_at = ${unit.now.toISOString()}::timestamptz
    from (values ${values}) as v(instance_id, trackers)
    where i.instance_id = v.instance_id and i.game_id = ${unit.gameId} and i.player_id = ${unit.playerId}`);
}

/** inQueue → surfaced: the duration restarts and trackers are measured from now. */
function surface(unit: PlayerTx, row: InstanceRow, cause: string): Promise<InstanceRow> {
  return move(unit, row, "surfaced", "surfaced", cause, {
    surfacedAt: unit.now,
    expiresAt: new Date(unit.now.getTime() + row.durationSeconds * 1000),
    trackerBaseline: baselineFor(row.completionConditions, unit.player),
    completionTrackers: zeroTrackers(row.completionConditions),
  });
}
