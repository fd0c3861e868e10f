/**
 * Support actions on one player through the admin API: a compensation grant (immediate, or pending
 * a second person's approval above the game's thresholds), its approval or rejection, and the
 * game's four-eyes thresholds.
 */
import { z } from "zod";
import { RewardKind } from "./rewards";
import { Identifier, Timestamp } from "./scalars";

/** The largest amount one support grant may give: anything above is a typing mistake, not a compensation. */
export const MAX_SUPPORT_GRANT_AMOUNT = 1_000_000;
export const SUPPORT_REASON_MAX = 500;
export const SUPPORT_ACTOR_MAX = 200;

/**
 * How a game server's own support acts name their actor (`game-server:<clientId>`): in the grant,
 * the reward.granted event and the player's history. No person's id starts with it.
 */
export const GAME_SERVER_ACTOR_PREFIX = "game-server:";

/** Who acts: the portal's signed-in person (its user id or e-mail), recorded in the grant, the event and the audit log. */
export const SupportActor = z
  .string()
  .trim()
  .min(1, { error: "name who acts" })
  .max(SUPPORT_ACTOR_MAX, { error: `must be at most ${SUPPORT_ACTOR_MAX} characters` })
  .refine((actor) => !actor.toLowerCase().startsWith(GAME_SERVER_ACTOR_PREFIX), { error: `"${GAME_SERVER_ACTOR_PREFIX}" names a game server's own acts, never a person` });

/** Why: required on every support action, shown to the approver and in the game server's event. */
export const SupportReason = z
  .string()
  .trim()
  .min(1, { error: "a reason is required" })
  .max(SUPPORT_REASON_MAX, { error: `must be at most ${SUPPORT_REASON_MAX} characters` });

/** An amount of one reward: a whole number from 1 to MAX_SUPPORT_GRANT_AMOUNT. */
export const SupportAmount = z
  .number()
  .int({ error: "must be a whole number" })
  .min(1, { error: "must be at least 1" })
  .max(MAX_SUPPORT_GRANT_AMOUNT, { error: `must be at most ${MAX_SUPPORT_GRANT_AMOUNT.toLocaleString("en-US")}` });

export const SupportGrantRequest = z.strictObject({
  /** The reward: a kind and an id the game knows (one of its currencies, or a reward of one of its offer definitions). */
  kind: RewardKind,
  rewardId: Identifier,
  amount: SupportAmount,
  reason: SupportReason,
  actor: SupportActor,
});
export type SupportGrantRequest = z.infer<typeof SupportGrantRequest>;

export const SupportGrantStatus = z.enum(["pending", "granted", "rejected", "expired"]);
export type SupportGrantStatus = z.infer<typeof SupportGrantStatus>;

export const SupportGrant = z
  .object({
    grantId: z.string(),
    gameId: z.string(),
    playerId: z.string(),
    kind: RewardKind,
    rewardId: z.string(),
    name: z.string(),
    amount: z.number(),
    reason: z.string(),
    requestedBy: z.string(),
    status: SupportGrantStatus,
    /** Whether the game's thresholds asked for a second person's approval. */
    approvalRequired: z.boolean(),
    decidedBy: z.string().nullable(),
    decisionReason: z.string().nullable(),
    requestedAt: Timestamp,
    decidedAt: Timestamp.nullable(),
    /** A pending grant not decided by then expires. */
    expiresAt: Timestamp.nullable(),
  })
  .meta({ id: "SupportGrant" });
export type SupportGrant = z.infer<typeof SupportGrant>;

export const SupportDecisionRequest = z.strictObject({ actor: SupportActor, reason: SupportReason.optional() });
export const SupportRejectRequest = z.strictObject({ actor: SupportActor, reason: SupportReason });

export const SupportGrantsQuery = z.object({
  status: SupportGrantStatus.optional(),
  playerId: Identifier.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const SupportGrantList = z.object({
  grants: z.array(SupportGrant),
  /** Pending grants awaiting approval in this game environment (for a badge). */
  pending: z.number(),
});
export type SupportGrantList = z.infer<typeof SupportGrantList>;

/** When a grant of a reward needs a second person: above an amount, or always. */
export const ApprovalThreshold = z.union([z.literal("always"), z.number().int().min(0).max(MAX_SUPPORT_GRANT_AMOUNT)]);
export type ApprovalThreshold = z.infer<typeof ApprovalThreshold>;

export const ApprovalRule = z.strictObject({
  kind: RewardKind,
  /** One reward of that kind (e.g. one currency); absent: every reward of the kind. */
  rewardId: Identifier.optional(),
  /** Grants of more than this amount wait for approval; "always": every grant does. */
  approvalAbove: ApprovalThreshold,
});
export type ApprovalRule = z.infer<typeof ApprovalRule>;

export const SupportThresholds = z.strictObject({
  /** A grant matching several rules needs approval when any of them says so. No rule: grants are immediate. */
  rules: z.array(ApprovalRule).max(100),
});
export type SupportThresholds = z.infer<typeof SupportThresholds>;

export const SupportGrantResponse = z.object({ grant: SupportGrant });
export type SupportGrantResponse = z.infer<typeof SupportGrantResponse>;
