/**
 * Support actions on one player's offers through the admin API: expire, revoke, extend or make
 * claimable an instance, assign a definition (re-offer), and send the player's deliveries again.
 * Each names who acts and why; the player's history records both with cause `support`.
 */
import { z } from "zod";
import { Offer } from "./offers";
import { ExternalId, Timestamp } from "./scalars";
import { SupportActor, SupportReason } from "./support";

/** How far ahead support may move an offer's expiry: 30 days from now. */
export const SUPPORT_EXTEND_MAX_DAYS = 30;
export const SUPPORT_EXTEND_MAX_MS = SUPPORT_EXTEND_MAX_DAYS * 24 * 3600 * 1000;
export const SUPPORT_EXTEND_RULE_IN_WORDS = `later than the offer's current expiry, and at most ${SUPPORT_EXTEND_MAX_DAYS} days from now`;

/** What support does to one open offer instance. */
export const SupportOfferAction = z.enum(["expire", "revoke", "extend", "make-claimable"]);
export type SupportOfferAction = z.infer<typeof SupportOfferAction>;

/** Expire, revoke or make claimable: who and why. */
export const SupportOfferActionRequest = z.strictObject({ actor: SupportActor, reason: SupportReason });
export type SupportOfferActionRequest = z.infer<typeof SupportOfferActionRequest>;

export const SupportExtendRequest = z.strictObject({
  actor: SupportActor,
  reason: SupportReason,
  /** The new expiry: later than the current one, at most SUPPORT_EXTEND_MAX_DAYS days from now. */
  expiresAt: Timestamp,
});
export type SupportExtendRequest = z.infer<typeof SupportExtendRequest>;

export const SupportOfferActionResponse = z
  .object({
    /** The offer after the action (client view). */
    offer: Offer,
    /** False when the offer already was where the action leads (a repeat): nothing was written. */
    changed: z.boolean(),
  })
  .meta({ id: "SupportOfferActionResult" });
export type SupportOfferActionResponse = z.infer<typeof SupportOfferActionResponse>;

/** Re-offer: assign a definition of the game to the player. */
export const SupportAssignRequest = z.strictObject({ offerId: ExternalId, actor: SupportActor, reason: SupportReason });
export type SupportAssignRequest = z.infer<typeof SupportAssignRequest>;

export const SupportAssignResponse = z.object({ offer: Offer });
export type SupportAssignResponse = z.infer<typeof SupportAssignResponse>;

/** Send the player's deliveries again: one (deliveryId) or, without it, all of them. */
/** A delivery's id in a JSON body: a number, never a string or a boolean read as one. */
const BodyDeliveryId = z.number({ error: "a delivery id is a whole number" }).int("a delivery id is a whole number").positive().max(Number.MAX_SAFE_INTEGER);

export const SupportResendRequest = z.strictObject({ deliveryId: BodyDeliveryId.optional(), actor: SupportActor, reason: SupportReason });
export type SupportResendRequest = z.infer<typeof SupportResendRequest>;

export const SupportResendResponse = z.object({
  /** The player's deliveries now queued again (a repeat within seconds counts them without sending twice). */
  replayed: z.number().int(),
});
export type SupportResendResponse = z.infer<typeof SupportResendResponse>;
