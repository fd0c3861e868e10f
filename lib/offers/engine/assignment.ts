/** Assignment of a definition to a player, inside the player's transaction. */
import { randomUUID } from "node:crypto";
import { OffersError } from "../errors";
import { offerInstances } from "../db/schema";
import type { Offer } from "../contract";
import { definitionRow } from "./definitions";
import { settle } from "./settle";
import { assignmentStatus } from "./slots";
import { baselineFor, zeroTrackers } from "./trackers";
import { pickVariant } from "../targeting/rollout";
import { openInstances, recordAll, type PlayerTx, type SupportNote } from "./transaction";
import type { DefinitionRow, InstanceRow } from "./types";
import { toOffer } from "./views";

/** Why an instance is assigned: a game server's call, a definition's rule, or support (re-offer, with who and why). */
export type AssignOrigin = { cause: "assign" } | { cause: "rule" } | { cause: "support"; note: SupportNote };

/** Assigns a definition to the player explicitly (a game server's call, or support's re-offer): surfaced when a slot is free, else inQueue. */
export async function assignOfferIn(unit: PlayerTx, offerId: string, origin: AssignOrigin = { cause: "assign" }): Promise<Offer> {
  const definition = await definitionRow(unit.tx, unit.gameId, offerId);
  if (!definition) throw new OffersError("offer-not-found", offerId);
  if (definition.status === "archived") throw new OffersError("definition-archived", offerId);
  await settle(unit, origin.cause);
  const open = await openInstances(unit);
  if (open.some((row) => row.offerId === offerId)) throw new OffersError("offer-already-assigned", offerId);
  const [row] = await insertInstances(unit, [definition], open, origin);
  return toOffer(row);
}

/** The row of a new assignment of `definition` to the player (a copy of its content, with the player's variant). */
export function newInstanceRow(unit: PlayerTx, definition: DefinitionRow, status: "surfaced" | "inQueue"): InstanceRow {
  const variant = definition.variants?.length ? pickVariant(definition.variants, unit.gameId, definition.offerId, unit.playerId) : null;
  const surfaced = status === "surfaced";
  const conditions = definition.completionConditions?.length ? definition.completionConditions : null;
  return {
    instanceId: randomUUID(),
    gameId: unit.gameId,
    playerId: unit.playerId,
    offerId: definition.offerId,
    status,
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
    claimedAt: null,
    updatedAt: unit.now,
    variantId: variant?.variantId ?? null,
    definitionVersion: definition.version,
  };
}

/**
 * Writes new instances of `definitions` for the player, in order, and records them: each is
 * surfaced when a slot is free among `open` (the player's open offers, settled) and those given
 * before it, else inQueue. Two statements whatever the count. Callers have checked whether the
 * player may get them.
 */
export async function insertInstances(unit: PlayerTx, definitions: readonly DefinitionRow[], open: readonly InstanceRow[], origin: AssignOrigin): Promise<InstanceRow[]> {
  if (definitions.length === 0) return [];
  const held = [...open];
  const rows = definitions.map((definition) => {
    const row = newInstanceRow(unit, definition, assignmentStatus(held, unit.maxOfferSlots));
    held.push(row);
    return row;
  });
  await unit.tx.insert(offerInstances).values(rows);
  await recordAll(
    unit,
    rows.map((row, i) => ({ row, from: null, type: row.status === "surfaced" ? "surfaced" : "queued", cause: origin.cause, ruleVersion: origin.cause === "rule" ? definitions[i].version : null,
      note: origin.cause === "support" ? origin.note : undefined,
    })),
  );
  return rows;
}
