/** Assignment of a definition to a player, inside the player's transaction. */
import { randomUUID } from "node:crypto";
import { OffersError } from "../errors";
import { offerInstances } from "../db/schema";
import type { Offer } from "../schemas";
import { definitionRow } from "./definitions";
import { settle } from "./settle";
import { assignmentStatus } from "./slots";
import { baselineFor, zeroTrackers } from "./trackers";
import { openInstances, record, type PlayerTx } from "./transaction";
import { toOffer } from "./views";

/** Assigns a definition to the player: surfaced when a slot is free, else inQueue. */
export async function assignOfferIn(unit: PlayerTx, offerId: string): Promise<Offer> {
  const definition = await definitionRow(unit.tx, unit.gameId, offerId);
  if (!definition) throw new OffersError("offer-not-found", offerId);
  await settle(unit, "assign");
  const open = await openInstances(unit);
  if (open.some((row) => row.offerId === offerId)) throw new OffersError("offer-already-assigned", offerId);
  const surfaced = assignmentStatus(open, unit.maxOfferSlots) === "surfaced";
  const conditions = definition.completionConditions?.length ? definition.completionConditions : null;
  const [row] = await unit.tx
    .insert(offerInstances)
    .values({
      instanceId: randomUUID(),
      gameId: unit.gameId,
      playerId: unit.playerId,
      offerId,
      status: surfaced ? "surfaced" : "inQueue",
      name: definition.name,
      description: definition.description,
      image: definition.image,
      rewards: definition.rewards,
      completionConditions: conditions,
      realTime: definition.realTime,
      durationSeconds: definition.durationSeconds,
      priority: definition.priority,
      trackerBaseline: surfaced ? baselineFor(conditions, unit.player) : {},
      completionTrackers: zeroTrackers(conditions),
      createdAt: unit.now,
      surfacedAt: surfaced ? unit.now : null,
      // A queued offer also has a deadline; surfacing restarts it for the full duration.
      expiresAt: new Date(unit.now.getTime() + definition.durationSeconds * 1000),
      updatedAt: unit.now,
    })
    .returning();
  await record(unit, row, null, surfaced ? "surfaced" : "queued", "assign");
  return toOffer(row);
}
