/**
 * The shapes of the portal's support actions, client-safe (zod only): the routes parse with them and
 * the forms validate with them, so a form refuses what the route would, in the same words.
 */
import { z } from "zod";
import { Identifier, IdempotencyKey, RewardKind, SupportAmount, SupportReason } from "../offers-client/schemas";

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
