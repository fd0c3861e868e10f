/**
 * The slot and queue rules, pure (no database): which offers hold a slot, what a settle does to a
 * player's open offers, where a new assignment goes, whether a campaigns read must write, what
 * viewing does. The transactional modules apply these decisions.
 */
import type { CompletionCondition, OfferStatus } from "../contract";

/** `surfaced`, `viewed` and `claimable` hold a slot; `inQueue` waits for one. */
export const SLOT_HOLDING: readonly OfferStatus[] = ["surfaced", "viewed", "claimable"];
/** What the clock can end (earned rewards, `claimable`, stay). */
export const EXPIRABLE: readonly OfferStatus[] = ["inQueue", "surfaced", "viewed"];
/** Not yet finished: claimed and expired are final. */
export const OPEN: readonly OfferStatus[] = ["inQueue", "surfaced", "viewed", "claimable"];

/** The fields of an offer instance the rules read. */
export interface SlotOffer {
  instanceId: string;
  status: OfferStatus;
  priority: number;
  createdAt: Date;
  expiresAt: Date;
  completionConditions: CompletionCondition[] | null;
}

export const holdsSlot = (offer: Pick<SlotOffer, "status">): boolean => SLOT_HOLDING.includes(offer.status);

export const isOverdue = (offer: Pick<SlotOffer, "status" | "expiresAt">, now: Date): boolean =>
  EXPIRABLE.includes(offer.status) && offer.expiresAt.getTime() <= now.getTime();

const hasConditions = (offer: Pick<SlotOffer, "completionConditions">): boolean => !!offer.completionConditions?.length;

export function heldSlots(offers: readonly Pick<SlotOffer, "status">[]): number {
  return offers.filter(holdsSlot).length;
}

export function freeSlots(offers: readonly Pick<SlotOffer, "status">[], maxSlots: number): number {
  return Math.max(0, maxSlots - heldSlots(offers));
}

/** Queue promotion order: highest priority, then oldest assignment, then instance id (a total order). */
export function queueOrder(a: SlotOffer, b: SlotOffer): number {
  return b.priority - a.priority || a.createdAt.getTime() - b.createdAt.getTime() || a.instanceId.localeCompare(b.instanceId);
}

export type SettleStep<T> = { kind: "expire"; offer: T } | { kind: "track"; offer: T };

/**
 * What bringing a player's open offers up to date does, in order: overdue offers expire and
 * surfaced/viewed offers with conditions have their trackers recomputed (in the given order), then
 * queued offers are promoted into the slots left free, in queue order.
 */
export function planSettle<T extends SlotOffer>(open: readonly T[], now: Date, maxSlots: number): { steps: SettleStep<T>[]; promote: T[] } {
  const steps: SettleStep<T>[] = [];
  const queue: T[] = [];
  let held = 0;
  for (const offer of open) {
    if (isOverdue(offer, now)) {
      steps.push({ kind: "expire", offer });
      continue;
    }
    if (offer.status === "inQueue") {
      queue.push(offer);
      continue;
    }
    held += 1;
    if ((offer.status === "surfaced" || offer.status === "viewed") && hasConditions(offer)) steps.push({ kind: "track", offer });
  }
  queue.sort(queueOrder);
  return { steps, promote: queue.slice(0, Math.max(0, maxSlots - held)) };
}

/** Where a new assignment goes, given the player's open offers after a settle. */
export function assignmentStatus(open: readonly Pick<SlotOffer, "status">[], maxSlots: number): "surfaced" | "inQueue" {
  return heldSlots(open) < maxSlots ? "surfaced" : "inQueue";
}

/** The next transition viewing causes: surfaced → viewed; viewed without conditions → claimable. */
export function viewingTransition(
  offer: Pick<SlotOffer, "status" | "completionConditions">,
): { to: "viewed" | "claimable"; cause: "viewingCampaigns" | "viewed-without-conditions" } | null {
  if (offer.status === "surfaced") return { to: "viewed", cause: "viewingCampaigns" };
  if (offer.status === "viewed" && !hasConditions(offer)) return { to: "claimable", cause: "viewed-without-conditions" };
  return null;
}

/** Whether a campaigns read would change anything (expiry, viewing, or a promotion), i.e. must take the player's lock. */
export function campaignsNeedWrite(offers: readonly SlotOffer[], now: Date, maxSlots: number, viewing: boolean): boolean {
  return (
    offers.some((o) => isOverdue(o, now)) ||
    (viewing && offers.some((o) => viewingTransition(o) !== null)) ||
    (heldSlots(offers) < maxSlots && offers.some((o) => o.status === "inQueue"))
  );
}

/** The offers a view lists: the client view leaves out queued ones. */
export function visibleOffers<T extends Pick<SlotOffer, "status">>(offers: readonly T[], includeQueued: boolean): T[] {
  return offers.filter((o) => includeQueued || o.status !== "inQueue");
}
