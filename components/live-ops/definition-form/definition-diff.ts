// What an edit changes, field by field, in words for people: the stored definition against the input
// about to be saved (both read through the contract, so defaults count as the service applies them).
// The form shows these rows before an active definition is saved. Pure: no React.
import { describeAudience, OfferDefinitionInput, type OfferDefinition, type OfferDefinitionDraft, type Reward } from "@/lib/offers-client/schemas";
import { formatAmount } from "@/components/offer-parts/offer-math";
import { formatSeconds, formatUtc } from "../format";
import { REWARD_KIND_LABELS } from "./form-model";

export interface DiffRow {
  field: string;
  before: string;
  after: string;
}

type Comparable = Pick<OfferDefinition, "name" | "description" | "rewards" | "realTime" | "durationSeconds" | "priority" | "audience" | "rollout"> & {
  image?: string | null;
  completionConditions?: OfferDefinition["completionConditions"];
  schedule: { startsAt?: string | null; endsAt?: string | null };
  limits: { maxActivationsPerPlayer: number; cooldownSeconds: number; maxClaimsTotal?: number | null };
  variants?: OfferDefinition["variants"];
};

const rewardText = (r: Reward) => `${formatAmount(r.amount)} × ${r.name} (${REWARD_KIND_LABELS[r.kind] ?? r.kind}, ${r.rewardId}${r.image ? ", with image" : ""})`;
const list = (items: string[]) => (items.length ? items.join("; ") : "none");
const instant = (iso: string | null | undefined) => (iso ? formatUtc(iso) : "—");

const FIELDS: Array<[string, (d: Comparable) => string]> = [
  ["Name", (d) => d.name],
  ["Description", (d) => d.description || "—"],
  ["Image URL", (d) => d.image || "—"],
  ["Rewards", (d) => list(d.rewards.map(rewardText))],
  ["Variants", (d) => list((d.variants ?? []).map((v) => `${v.variantId}${v.name ? ` (${v.name})` : ""}, weight ${formatAmount(v.weight)}: ${v.rewards.map(rewardText).join(", ")}`))],
  ["Completion conditions", (d) => list((d.completionConditions ?? []).map((c) => `spend ${formatAmount(c.amount)} ${c.name} (${c.id})`))],
  ["Real time", (d) => (d.realTime ? "yes" : "no")],
  ["Duration", (d) => formatSeconds(d.durationSeconds)],
  ["Priority", (d) => String(d.priority)],
  ["Audience", (d) => describeAudience(d.audience)],
  ["Rollout", (d) => `${formatAmount(d.rollout)}%`],
  ["Starts", (d) => instant(d.schedule.startsAt)],
  ["Ends", (d) => instant(d.schedule.endsAt)],
  ["Activations per player", (d) => String(d.limits.maxActivationsPerPlayer)],
  ["Cooldown", (d) => formatSeconds(d.limits.cooldownSeconds)],
  ["Claims in total", (d) => (d.limits.maxClaimsTotal ? formatAmount(d.limits.maxClaimsTotal) : "no limit")],
];

/** The fields an edit changes, in the form's order; empty when it changes nothing. */
export function definitionDiff(before: OfferDefinition, input: OfferDefinitionDraft): DiffRow[] {
  const parsed = OfferDefinitionInput.safeParse(input);
  if (!parsed.success) return [];
  const a = parsed.data;
  const after: Comparable = {
    ...a,
    // With variants and no rewards of its own, the service stores the first variant's.
    rewards: a.rewards ?? a.variants?.[0]?.rewards ?? [],
    audience: a.audience ?? null,
    schedule: a.schedule ?? {},
    limits: { maxActivationsPerPlayer: a.limits?.maxActivationsPerPlayer ?? 1, cooldownSeconds: a.limits?.cooldownSeconds ?? 0, maxClaimsTotal: a.limits?.maxClaimsTotal ?? null },
  };
  const rows: DiffRow[] = [];
  for (const [field, show] of FIELDS) {
    const was = show(before);
    const now = show(after);
    if (was !== now) rows.push({ field, before: was, after: now });
  }
  return rows;
}
