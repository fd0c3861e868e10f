/** Assignment of a definition to a player, inside the player's transaction. */
import { randomUUID } from "node:crypto";
import { OffersError } from "../errors";
import { offerInstances } from "../db/schema";
import type { Offer } from "../schemas";
import { definitionRow } from "./definitions";
import { settle } from "./settle";
import { assignmentStatus } from "./slots";
import { baselineFor, zeroTrackers } from "./trackers";
import { pickVariant } from "../targeting/rollout";
import { openInstances, record, type PlayerTx } from "./transaction";
import type { DefinitionRow, InstanceRow } from "./types";
import { toOffer } from "./views";

/** Assigns a definition to the player explicitly (a game server's call): surfaced when a slot is free, else inQueue. */
export async function assignOfferIn(unit: PlayerTx, offerId: string): Promise<Offer> {
  const definition = await definitionRow(unit.tx, unit.gameId, offerId);
  if (!definition) throw new OffersError("offer-not-found", offerId);
  if (definition.status === "archived") throw new OffersError("definition-archived", offerId);
  await settle(unit, "assign");
  const open = await openInstances(unit);
  if (open.some((row) => row.offerId === offerId)) throw new OffersError("offer-already-assigned", offerId);
  return toOffer(await insertInstance(unit, definition, open, { cause: "assign" }));
}

/**
 * Writes a new instance of `definition` for the player (a copy of its content, with the player's
 * variant) and records it: surfaced when a slot is free among `open` (the player's open offers,
 * settled), else inQueue. Callers have checked whether the player may get it.
 */
export async function insertInstance(unit: PlayerTx, definition: DefinitionRow, open: readonly InstanceRow[], origin: { cause: "assign" | "rule" }): Promise<InstanceRow> {
  const offerId = definition.offerId;
  const variant = definition.variants?.length ? pickVariant(definition.variants, unit.gameId, offerId, unit.playerId) : null;
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
      rewards: variant?.rewards ?? definition.rewards,
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
      variantId: variant?.variantId ?? null,
      definitionVersion: definition.version,
    })
    .returning();
  await record(unit, row, null, surfaced ? "surfaced" : "queued", origin.cause, origin.cause === "rule" ? definition.version : null);
  return row;
}
