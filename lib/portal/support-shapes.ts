/**
 * The shapes of the portal's support actions, client-safe (zod only): the routes parse with them and
 * the forms validate with them, so a form refuses what the route would, in the same words.
 */
import { z } from "zod";
import { Identifier, IdempotencyKey, RewardKind, SupportAmount, SupportExtendRequest, SupportReason, SupportResendRequest } from "../offers-client/schemas";

/** A compensation as support fills it in; who grants it is the signed-in user. */
export const CompensationBody = z.strictObject({ kind: RewardKind, rewardId: Identifier, amount: SupportAmount, reason: SupportReason });
export type CompensationBody = z.infer<typeof CompensationBody>;

/** An approval: a note is optional. */
export const ApproveGrantBody = z.strictObject({ reason: SupportReason.optional() });
/** A rejection: the requester reads why. */
export const RejectGrantBody = z.strictObject({ reason: SupportReason });

/** Idempotency-Key of a grant: one per opened dialog, so a repeated submit answers the first grant. */
export const GrantHeaders = z.object({ "idempotency-key": IdempotencyKey.optional() });

export const GrantParams = z.object({ gameId: Identifier, grantId: Identifier });

/** Expire, revoke or make claimable one of the player's offers: why (who is the signed-in user). */
export const OfferActionBody = z.strictObject({ reason: SupportReason });
export type OfferActionBody = z.infer<typeof OfferActionBody>;

/** Extend an offer: the new expiry (later than the current one, at most 30 days from now) and why. */
export const ExtendOfferBody = z.strictObject({ reason: SupportReason, expiresAt: SupportExtendRequest.shape.expiresAt });
export type ExtendOfferBody = z.infer<typeof ExtendOfferBody>;

/** Re-offer: which of the game's definitions, and why. */
export const ReofferBody = z.strictObject({ offerId: Identifier, reason: SupportReason });
export type ReofferBody = z.infer<typeof ReofferBody>;

/** Re-send the player's deliveries: one (deliveryId) or, without it, all; and why. */
export const ResendDeliveriesBody = z.strictObject({ deliveryId: SupportResendRequest.shape.deliveryId, reason: SupportReason });
export type ResendDeliveriesBody = z.infer<typeof ResendDeliveriesBody>;

export const InstanceParams = z.object({ gameId: Identifier, playerId: Identifier, instanceId: Identifier });
/**
 * A bulk compensation as support fills it in (the form's fields; the list of ids comes as a file or
 * text field `players`, or an audience rule as JSON text in `audience`). Who asks is the signed-in user.
 */
export const BulkCompensationFields = z.strictObject({
  kind: RewardKind,
  rewardId: Identifier,
  amount: z.coerce.number().pipe(SupportAmount),
  reason: SupportReason,
});
export type BulkCompensationFields = z.infer<typeof BulkCompensationFields>;

/** A bulk compensation's path. */
export const BulkJobParams = z.object({ gameId: Identifier, jobId: Identifier });
/** A cancel or a rejection: a reason is required; an approval's note is optional (ApproveGrantBody). */
export const BulkReasonBody = z.strictObject({ reason: SupportReason });

/** The multipart form of a bulk compensation as the API documents it (lib/portal/bulk-compensation reads it). */
export const BulkCompensationForm = BulkCompensationFields.extend({
  players: z.string().optional().describe("The CSV of player ids (a file or text): one a line or comma-separated, an optional playerId header"),
  audience: z.string().optional().describe("Instead of players: an audience rule as JSON"),
});
