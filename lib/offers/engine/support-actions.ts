/**
 * Support's acts on one player's offers, each in the player's transaction through the engine's own
 * status machine and history: expire, revoke, extend or make claimable an instance, and re-offer (an
 * explicit assignment). Each history row has cause `support`, who acted and why, and its domain event
 * is published after commit like any other transition (the watch stream and, when an offer surfaces,
 * the player's stream see it). A repeat answers the current state and writes nothing.
 */
import { and, eq } from "drizzle-orm";
import { offerInstances, players } from "../db/schema";
import { OffersError } from "../errors";
import type { CompletionTrackers, Offer, SupportOfferAction } from "../contract";
import { assignOfferIn } from "./assignment";
import { settle } from "./settle";
import { supportStep } from "./support-transitions";
import { move, recordAll, withPlayerTransaction, type SupportNote } from "./transaction";
import { trackerKeys } from "./trackers";
import type { EngineCore, InstanceRow } from "./types";
import { toOffer } from "./views";

export interface SupportOfferAsk extends SupportNote {
  gameId: string;
  playerId: string;
  instanceId: string;
  action: SupportOfferAction;
  /** For extend: the new expiry. */
  expiresAt?: Date;
}

export interface SupportOfferOutcome {
  offer: Offer;
  /** False for a repeat: the offer already was where the action leads. */
  changed: boolean;
}

const CAUSE = "support";

/** Refuses (changing nothing) a player the game does not have: the player's transaction would create one. */
export async function requirePlayer(core: EngineCore, gameId: string, playerId: string): Promise<void> {
  if (!(await core.gameSettings(gameId)).exists) throw new OffersError("game-not-found", gameId);
  const [player] = await core.db
    .select({ playerId: players.playerId })
    .from(players)
    .where(and(eq(players.gameId, gameId), eq(players.playerId, playerId)));
  if (!player) throw new OffersError("player-not-found", playerId);
}

/**
 * Applies `ask.action` to the player's instance. The player's offers are settled first (an offer
 * past its time has expired by the clock before support acts on it); a slot an expire or revoke
 * frees goes to the queue at once.
 */
export async function supportOfferAction(core: EngineCore, ask: SupportOfferAsk): Promise<SupportOfferOutcome> {
  const { gameId, playerId, instanceId } = ask;
  await requirePlayer(core, gameId, playerId);
  const note: SupportNote = { actor: ask.actor, reason: ask.reason };
  return withPlayerTransaction(core, gameId, playerId, async (unit) => {
    await settle(unit, CAUSE);
    const [row] = await unit.tx
      .select()
      .from(offerInstances)
      .where(and(eq(offerInstances.gameId, gameId), eq(offerInstances.playerId, playerId), eq(offerInstances.instanceId, instanceId)));
    if (!row) throw new OffersError("offer-not-found", instanceId);
    const step = supportStep(ask.action, row, unit.now, ask.expiresAt);
    if (step.kind === "refuse") throw new OffersError(step.code, step.why);
    if (step.kind === "already") return { offer: toOffer(row), changed: false };
    if (step.kind === "extend") {
      const [updated] = await unit.tx
        .update(offerInstances)
        .set({ expiresAt: step.expiresAt, updatedAt: unit.now })
        .where(and(eq(offerInstances.instanceId, row.instanceId), eq(offerInstances.status, row.status)))
        .returning();
      await recordAll(unit, [{ row: updated!, from: row.status, type: "extended", cause: CAUSE, note }]);
      return { offer: toOffer(updated!), changed: true };
    }
    const moved = await move(unit, row, step.to, step.type, CAUSE, step.to === "claimable" ? { completionTrackers: fullTrackers(row) } : {}, note);
    if (step.to === "expired") await settle(unit, CAUSE);
    return { offer: toOffer(moved), changed: true };
  });
}

/** Re-offer: assigns a definition to the player as support (surfaced when a slot is free, else queued). */
export async function supportAssign(core: EngineCore, ask: SupportNote & { gameId: string; playerId: string; offerId: string }): Promise<Offer> {
  await requirePlayer(core, ask.gameId, ask.playerId);
  return withPlayerTransaction(core, ask.gameId, ask.playerId, (unit) => assignOfferIn(unit, ask.offerId, { cause: CAUSE, note: { actor: ask.actor, reason: ask.reason } }));
}

/** Trackers of a completed offer: every condition at its amount (what the player sees of an offer made claimable). */
function fullTrackers(row: Pick<InstanceRow, "completionConditions" | "completionTrackers">): CompletionTrackers {
  const conditions = row.completionConditions ?? [];
  if (conditions.length === 0) return row.completionTrackers;
  const keys = trackerKeys(conditions);
  return Object.fromEntries(conditions.map((c, i) => [keys[i], c.amount]));
}
