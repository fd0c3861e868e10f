/** Rewards and the conditions that earn them. */
import { z } from "zod";
import { ImageUrl } from "./scalars";

export const RewardKind = z.enum(["item", "coins", "exp", "trust_points", "loyalty_currency"]);
export type RewardKind = z.infer<typeof RewardKind>;

export const Reward = z.object({
  kind: RewardKind,
  rewardId: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  amount: z.number().finite().nonnegative(),
  image: ImageUrl.optional(),
});
export type Reward = z.infer<typeof Reward>;

/** Completion-condition kinds the engine can track. The interface names spendCurrency only. */
export const CompletionConditionKind = z.enum(["spendCurrency"]);
export type CompletionConditionKind = z.infer<typeof CompletionConditionKind>;

export const CompletionCondition = z.strictObject({
  kind: CompletionConditionKind,
  /** Identifier of the currency. */
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  amount: z.number().finite().positive(),
});
export type CompletionCondition = z.infer<typeof CompletionCondition>;
