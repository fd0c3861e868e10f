/** Applies the slot rules (./slots) inside a player's transaction: expiry, trackers → claimable, queue promotion. */
import { eq } from "drizzle-orm";
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
  for (const step of plan.steps) {
    if (step.kind === "expire") after.set(step.offer.instanceId, await move(unit, step.offer, "expired", "expired", "expiry"));
    else after.set(step.offer.instanceId, await track(unit, step.offer, cause));
  }
  for (const row of plan.promote) after.set(row.instanceId, await surface(unit, row, "slot-freed"));
  return [...after.values()];
}

/** Recomputes trackers of one surfaced/viewed offer; moves it to claimable when every condition is met. */
async function track(unit: PlayerTx, row: InstanceRow, cause: string): Promise<InstanceRow> {
  const { trackers, complete } = computeTrackers(row.completionConditions ?? [], row.trackerBaseline, unit.player);
  if (complete) return move(unit, row, "claimable", "claimable", cause, { completionTrackers: trackers });
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

/** inQueue → surfaced: the duration restarts and trackers are measured from now. */
function surface(unit: PlayerTx, row: InstanceRow, cause: string): Promise<InstanceRow> {
  return move(unit, row, "surfaced", "surfaced", cause, {
    surfacedAt: unit.now,
    expiresAt: new Date(unit.now.getTime() + row.durationSeconds * 1000),
    trackerBaseline: baselineFor(row.completionConditions, unit.player),
    completionTrackers: zeroTrackers(row.completionConditions),
  });
}
