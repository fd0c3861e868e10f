// Pure helpers shared by the support dashboard and the players' rewards page: progress of an offer's
// conditions from its trackers, time left, status labels. No React, no server code.
import type { Offer, OfferStatus } from "@/lib/offers-client/schemas";

export interface ConditionProgress {
  /** The tracker key: the condition kind, or `kind:id` when the offer has two conditions of one kind. */
  key: string;
  name: string;
  kind: string;
  /** The condition's target amount. */
  amount: number;
  /** Progress so far, within [0, amount]. */
  progress: number;
  /** progress / amount, within [0, 1]. */
  fraction: number;
  done: boolean;
}

type OfferLike = Pick<Offer, "status" | "completionConditions" | "completionTrackers">;

/**
 * One entry per completion condition. Trackers are keyed by condition kind, or by `kind:id` when the
 * offer has two conditions of one kind (DESIGN, "Offers service"); both keys are looked up so either
 * form is read. A claimable or claimed offer has met every condition even when a tracker is missing.
 */
export function conditionProgress(offer: OfferLike): ConditionProgress[] {
  const conditions = offer.completionConditions ?? [];
  const trackers = offer.completionTrackers ?? {};
  const complete = offer.status === "claimable" || offer.status === "claimed";
  return conditions.map((condition) => {
    const sameKind = conditions.filter((c) => c.kind === condition.kind).length;
    const key = sameKind > 1 ? `${condition.kind}:${condition.id}` : condition.kind;
    const raw = trackers[key] ?? trackers[`${condition.kind}:${condition.id}`] ?? (sameKind > 1 ? undefined : trackers[condition.kind]);
    const amount = condition.amount > 0 ? condition.amount : 0;
    let progress = typeof raw === "number" && Number.isFinite(raw) ? raw : 0;
    if (complete) progress = Math.max(progress, amount);
    progress = Math.min(Math.max(progress, 0), amount);
    const fraction = amount > 0 ? progress / amount : 1;
    return { key, name: condition.name, kind: condition.kind, amount, progress, fraction, done: fraction >= 1 };
  });
}

/** A short verb phrase of a condition kind ("Spend 500 Gold"). */
export function conditionLabel(condition: Pick<ConditionProgress, "kind" | "name" | "amount">): string {
  const amount = formatAmount(condition.amount);
  if (condition.kind === "spendCurrency") return `Spend ${amount} ${condition.name}`;
  return `${condition.name}: ${amount}`;
}

export function formatAmount(value: number): string {
  return new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 }).format(value);
}

/** "2d 3h", "3h 12m", "12m", "less than a minute"; null when the time has passed. */
export function formatDuration(ms: number): string | null {
  if (!(ms > 0)) return null;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "less than a minute";
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours > 0 ? `${days}d ${hours}h` : `${days}d`;
  if (hours > 0) return mins > 0 ? `${hours}h ${mins}m` : `${hours}h`;
  return `${mins}m`;
}

/**
 * What the player is told about an offer's deadline. Claimable offers do not expire (earned rewards
 * stay claimable); claimed and expired ones have no deadline any more.
 */
export function timeLeftLabel(offer: Pick<Offer, "status" | "expiresAt">, now: number): string {
  switch (offer.status) {
    case "claimed":
      return "Claimed";
    case "claimable":
      return "Ready to claim — no time limit";
    case "expired":
      return "Expired";
  }
  const left = formatDuration(Date.parse(offer.expiresAt) - now);
  return left ? `${left} left` : "Expired";
}

export type Tone = "neutral" | "accent" | "success" | "warning" | "danger";

export const statusLabels: Record<OfferStatus, string> = {
  inQueue: "In queue",
  surfaced: "New",
  viewed: "Viewed",
  claimable: "Claimable",
  claimed: "Claimed",
  expired: "Expired",
};

export function statusTone(status: string): Tone {
  switch (status) {
    case "claimable":
      return "success";
    case "claimed":
      return "accent";
    case "expired":
    case "revoked":
      return "danger";
    case "inQueue":
    case "queued":
      return "warning";
    default:
      return "neutral";
  }
}

export function statusLabel(status: string): string {
  return (statusLabels as Record<string, string>)[status] ?? status;
}
