/**
 * Reward kinds in words, one table for the portal's pages and its audit log; client-safe (no
 * server-only), so components and lib/portal import the same words.
 */
import type { RewardKind } from "./schemas";

/** Each kind as people say it, plural and lower case, in the order forms offer them. */
export const REWARD_KIND_WORDS: Readonly<Record<RewardKind, string>> = {
  coins: "coins",
  loyalty_currency: "loyalty currency",
  item: "items",
  exp: "experience",
  trust_points: "trust points",
};

/** A kind's words to start a sentence or label an option: "Loyalty currency". */
export function rewardKindLabel(kind: RewardKind): string {
  const words = REWARD_KIND_WORDS[kind];
  return `${words[0]!.toUpperCase()}${words.slice(1)}`;
}
