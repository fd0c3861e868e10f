/**
 * The four-eyes rules of support grants, as pure functions: whether a grant needs a second person,
 * who may decide a pending grant, and when a pending grant is stale. The database applies them with
 * conditional updates (./support-grants), so N instances agree.
 */
import type { ApprovalRule, RewardKind, SupportGrantStatus } from "../contract";

/** How long a pending grant waits for a decision before it expires. */
export const SUPPORT_GRANT_PENDING_MS = 72 * 3600 * 1000;

export interface GrantAsked {
  kind: RewardKind;
  rewardId: string;
  amount: number;
}

/** The rules that apply to a reward: those of its kind, for every reward or for this one. */
export function rulesFor(rules: readonly ApprovalRule[], reward: Pick<GrantAsked, "kind" | "rewardId">): ApprovalRule[] {
  return rules.filter((rule) => rule.kind === reward.kind && (rule.rewardId === undefined || rule.rewardId === reward.rewardId));
}

/** Whether one rule asks for approval of this amount. */
export function ruleRequiresApproval(rule: ApprovalRule, amount: number): boolean {
  return rule.approvalAbove === "always" || amount > rule.approvalAbove;
}

/**
 * Whether a grant waits for a second person: when any rule that applies to its reward says so
 * (the strictest wins, so adding a rule never lets a grant through that needed approval before).
 * Answers the first such rule, for the sentence the requester reads.
 */
export function approvalNeeded(rules: readonly ApprovalRule[], grant: GrantAsked): { required: boolean; rule: ApprovalRule | null } {
  const rule = rulesFor(rules, grant).find((r) => ruleRequiresApproval(r, grant.amount)) ?? null;
  return { required: rule !== null, rule };
}

/** Who asks for a support grant: a person through the portal, or the game's own server with its API key. */
export type GrantRequester = "person" | "game-server";

/**
 * `approvalNeeded` for one requester. Four eyes are for people: a game server's grant never waits,
 * since its API key already lets it give its players anything in its own game; a second person of
 * ours would check nothing the key does not allow. Its grant is recorded with its client id instead.
 */
export function approvalNeededFor(requester: GrantRequester, rules: readonly ApprovalRule[], grant: GrantAsked): { required: boolean; rule: ApprovalRule | null } {
  return requester === "game-server" ? { required: false, rule: null } : approvalNeeded(rules, grant);
}

/** The same person, however their id was typed: ids are compared trimmed and case-insensitively. */
export function samePerson(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export type DecisionRefusal = "same-person" | "not-pending" | "expired";

/** Whether `actor` may decide (approve or reject) a grant now; null when they may. */
export function decisionRefusal(grant: { status: SupportGrantStatus; requestedBy: string; expiresAt: Date | null }, actor: string, now: Date): DecisionRefusal | null {
  if (grant.status !== "pending") return "not-pending";
  if (isStale(grant, now)) return "expired";
  if (samePerson(grant.requestedBy, actor)) return "same-person";
  return null;
}

/** A pending grant whose time to be decided has passed. */
export function isStale(grant: { status: SupportGrantStatus; expiresAt: Date | null }, now: Date): boolean {
  return grant.status === "pending" && grant.expiresAt !== null && grant.expiresAt.getTime() <= now.getTime();
}
