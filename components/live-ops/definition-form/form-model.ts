// The definition form's draft: what the person types (numbers and times as text, durations with a unit,
// the audience as the builder's tree), its checks in words for people, and the conversions to and from
// the offers contract (OfferDefinitionInput / OfferDefinition). Pure: no React.
import { z } from "zod";
import {
  IDENTIFIER_PATTERN,
  IDENTIFIER_RULE_IN_WORDS,
  OfferDefinitionInput,
  RewardKind,
  type OfferDefinition,
  type OfferDefinitionDraft,
  type Reward,
} from "@/lib/offers-client/schemas";
import { audienceFaults, faultCount, fromRule, newGroup, type GroupDraft } from "../audience/audience-model";

export const DURATION_UNITS = { seconds: 1, minutes: 60, hours: 3_600, days: 86_400 } as const;
export type DurationUnit = keyof typeof DURATION_UNITS;
export const REWARD_KINDS = RewardKind.options;
export const REWARD_KIND_LABELS: Record<Reward["kind"], string> = { item: "Item", coins: "Coins", exp: "Experience", trust_points: "Trust points", loyalty_currency: "Loyalty currency" };

export interface RewardDraft {
  kind: Reward["kind"];
  rewardId: string;
  name: string;
  amount: string;
  image: string;
}
export interface VariantDraft {
  variantId: string;
  name: string;
  weight: string;
  rewards: RewardDraft[];
}
export interface ConditionDraft {
  /** The game currency to spend. */
  id: string;
  name: string;
  amount: string;
}

export interface DefinitionDraft {
  offerId: string;
  name: string;
  description: string;
  image: string;
  rewards: RewardDraft[];
  variantsOn: boolean;
  variants: VariantDraft[];
  conditions: ConditionDraft[];
  realTime: boolean;
  durationAmount: string;
  durationUnit: DurationUnit;
  priority: string;
  /** Whether it surfaces by itself for an audience (else only when a game server assigns it). */
  targeted: boolean;
  audience: GroupDraft;
  rollout: string;
  /** UTC, as a datetime-local input holds it: 2026-12-01T09:30. */
  startsAt: string;
  endsAt: string;
  maxActivationsPerPlayer: string;
  cooldownAmount: string;
  cooldownUnit: DurationUnit;
  maxClaimsTotal: string;
}

export const emptyReward = (): RewardDraft => ({ kind: "coins", rewardId: "", name: "", amount: "", image: "" });
export const emptyVariant = (n: number): VariantDraft => ({ variantId: String.fromCharCode(96 + n), name: "", weight: "1", rewards: [emptyReward()] });

export function newDraft(): DefinitionDraft {
  return {
    offerId: "",
    name: "",
    description: "",
    image: "",
    rewards: [emptyReward()],
    variantsOn: false,
    variants: [],
    conditions: [],
    realTime: true,
    durationAmount: "1",
    durationUnit: "days",
    priority: "0",
    targeted: true,
    audience: newGroup(),
    rollout: "100",
    startsAt: "",
    endsAt: "",
    maxActivationsPerPlayer: "1",
    cooldownAmount: "0",
    cooldownUnit: "hours",
    maxClaimsTotal: "",
  };
}

// ---------- checks ----------

interface NumberRule {
  min?: number;
  max?: number;
  integer?: boolean;
  optional?: boolean;
}

const figure = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 6 });

/** The rule a typed number must keep, in words: "a whole number from 1 to 1,000". */
export function numberRuleInWords(rule: NumberRule): string {
  const kind = rule.integer ? "a whole number" : "a number";
  // The smallest positive step stands for "above 0" (a weight or an amount that must not be nothing).
  const above0 = rule.min !== undefined && rule.min > 0 && rule.min < 0.001;
  if (rule.min !== undefined && rule.max !== undefined) return above0 ? `${kind} above 0 and at most ${figure(rule.max)}` : `${kind} from ${figure(rule.min)} to ${figure(rule.max)}`;
  if (rule.min !== undefined) return above0 ? `${kind} above 0` : `${kind} of ${figure(rule.min)} or more`;
  if (rule.max !== undefined) return `${kind} of at most ${figure(rule.max)}`;
  return kind;
}

/** Why a typed number does not fit, as a sentence giving the whole rule; null when it fits. */
export function numberFault(text: string, rule: NumberRule): string | null {
  const t = text.trim();
  if (!t) return rule.optional ? null : `Enter ${numberRuleInWords(rule)}.`;
  const n = Number(t);
  const fits = Number.isFinite(n) && (!rule.integer || Number.isInteger(n)) && (rule.min === undefined || n >= rule.min) && (rule.max === undefined || n <= rule.max);
  if (fits) return null;
  const typed = t.length > 20 ? `${t.slice(0, 20)}…` : t;
  return Number.isFinite(n) ? `Enter ${numberRuleInWords(rule)}; ${typed} is not.` : `“${typed}” is not a number: enter ${numberRuleInWords(rule)}.`;
}

const numberText = (rule: NumberRule) =>
  z.string().superRefine((text, ctx) => {
    const fault = numberFault(text, rule);
    if (fault) ctx.addIssue({ code: "custom", message: fault });
  });

const url = z.string().superRefine((text, ctx) => {
  if (!text.trim()) return;
  if (!z.url().max(2048).safeParse(text.trim()).success) ctx.addIssue({ code: "custom", message: "Enter a web address starting with https:// (or a data: image), or leave it empty." });
});

const text = (max: number, required: string | null) =>
  z.string().superRefine((value, ctx) => {
    if (required && !value.trim()) ctx.addIssue({ code: "custom", message: required });
    else if (value.length > max) ctx.addIssue({ code: "custom", message: `Use at most ${figure(max)} characters; this has ${figure(value.length)}.` });
  });

/** A reward row nothing was typed into. */
export const isBlankReward = (r: RewardDraft) => !r.rewardId.trim() && !r.name.trim() && !r.amount.trim() && !r.image.trim();

/** A reward's amount: a number of 0 or more, said as one sentence whatever is wrong with it. */
const rewardAmount = z.string().superRefine((value, ctx) => {
  if (numberFault(value, { min: 0 })) ctx.addIssue({ code: "custom", message: "Enter the amount as a number of 0 or more, such as 100." });
});

// A reward's messages are sentences: they show under the field and, after its label, in the form's summary.
const rewardSchema = z.object({
  kind: RewardKind,
  rewardId: z.string().superRefine((value, ctx) => {
    if (!value.trim()) ctx.addIssue({ code: "custom", message: "Enter the reward's id, as the game knows it (such as gold)." });
    else if (value.length > 200) ctx.addIssue({ code: "custom", message: `The reward's id can be at most 200 characters; this one has ${value.length.toLocaleString("en-US")}.` });
  }),
  name: z.string().superRefine((value, ctx) => {
    if (!value.trim()) ctx.addIssue({ code: "custom", message: "Enter the reward's name as players see it." });
    else if (value.length > 200) ctx.addIssue({ code: "custom", message: `The reward's name can be at most 200 characters; this one has ${value.length.toLocaleString("en-US")}.` });
  }),
  amount: rewardAmount,
  image: z.string().superRefine((value, ctx) => {
    if (value.trim() && !z.url().max(2048).safeParse(value.trim()).success) {
      ctx.addIssue({ code: "custom", message: "Enter the image's web address (starting with https://) or a data: image, or leave it empty." });
    }
  }),
});

/** An identifier of the offers API, said in its own words. */
const identifier = (what: string) =>
  z.string().superRefine((value, ctx) => {
    if (!value) ctx.addIssue({ code: "custom", message: `Enter ${what}.` });
    else if (!IDENTIFIER_PATTERN.test(value)) ctx.addIssue({ code: "custom", message: `Use ${IDENTIFIER_RULE_IN_WORDS}.` });
  });

const utcInstant = z.string().superRefine((value, ctx) => {
  if (value && Number.isNaN(Date.parse(toIso(value) ?? ""))) ctx.addIssue({ code: "custom", message: "Enter a date and time (UTC), or leave it empty." });
});

/** The draft's checks; `creating` checks the offerId too (it cannot change once created). */
export function draftSchema(creating: boolean) {
  return z
    .object({
      offerId: creating ? identifier("an offer id") : z.string(),
      name: text(200, "Enter a name for the offer."),
      description: text(2000, null),
      image: url,
      // Checked below: with variants on, a row left blank is no reward (the contract lets rewards be omitted then).
      rewards: z.array(z.custom<RewardDraft>()).max(50, "An offer can give at most 50 rewards."),
      variantsOn: z.boolean(),
      variants: z.array(
        z.object({ variantId: identifier("a variant id"), name: text(200, null), weight: numberText({ min: 0.000001, max: 1_000_000 }), rewards: z.array(rewardSchema).min(1, "Each variant needs at least one reward.").max(50, "A variant can give at most 50 rewards.") }),
      ),
      conditions: z.array(z.object({ id: z.string().min(1, "Choose a currency."), name: text(200, "Enter the name players see for this condition."), amount: numberText({ min: 0.000001 }) })).max(20, "An offer can have at most 20 completion conditions."),
      realTime: z.boolean(),
      durationAmount: numberText({ min: 1, integer: true }),
      durationUnit: z.enum(Object.keys(DURATION_UNITS) as [DurationUnit, ...DurationUnit[]]),
      priority: numberText({ min: -1_000_000, max: 1_000_000, integer: true }),
      targeted: z.boolean(),
      audience: z.custom<GroupDraft>(),
      rollout: numberText({ min: 0, max: 100 }),
      startsAt: utcInstant,
      endsAt: utcInstant,
      maxActivationsPerPlayer: numberText({ min: 1, max: 1_000, integer: true }),
      cooldownAmount: numberText({ min: 0, integer: true }),
      cooldownUnit: z.enum(Object.keys(DURATION_UNITS) as [DurationUnit, ...DurationUnit[]]),
      maxClaimsTotal: numberText({ min: 1, max: 1_000_000_000, integer: true, optional: true }),
    })
    .superRefine((draft, ctx) => {
      if (!draft.variantsOn && draft.rewards.length === 0) ctx.addIssue({ code: "custom", path: ["rewards"], message: "Add a reward, or split players between reward variants." });
      draft.rewards.forEach((reward, i) => {
        if (draft.variantsOn && isBlankReward(reward)) return;
        for (const issue of rewardSchema.safeParse(reward).error?.issues ?? []) ctx.addIssue({ code: "custom", path: ["rewards", i, ...issue.path], message: issue.message });
      });
      if (draft.variantsOn) {
        if (draft.variants.length < 2 || draft.variants.length > 4) ctx.addIssue({ code: "custom", path: ["variants"], message: "Split players between 2 to 4 variants." });
        const ids = draft.variants.map((v) => v.variantId);
        ids.forEach((id, i) => {
          if (id && ids.indexOf(id) !== i) ctx.addIssue({ code: "custom", path: ["variants", i, "variantId"], message: "Another variant has this id; give each variant its own." });
        });
      }
      const seconds = secondsOf(draft.durationAmount, draft.durationUnit);
      if (seconds !== null && seconds > 366 * 86_400) ctx.addIssue({ code: "custom", path: ["durationAmount"], message: "An offer can last at most 366 days." });
      const cooldown = secondsOf(draft.cooldownAmount, draft.cooldownUnit);
      if (cooldown !== null && cooldown > 366 * 86_400) ctx.addIssue({ code: "custom", path: ["cooldownAmount"], message: "A cooldown can be at most 366 days." });
      const starts = toIso(draft.startsAt);
      const ends = toIso(draft.endsAt);
      if (starts && ends && Date.parse(starts) >= Date.parse(ends)) ctx.addIssue({ code: "custom", path: ["endsAt"], message: "Set the end after the start." });
      if (draft.targeted) {
        const problems = faultCount(audienceFaults(draft.audience).faults);
        if (problems) ctx.addIssue({ code: "custom", path: ["audience"], message: problems === 1 ? "One condition of the audience has a problem; it is marked above." : `${problems} problems in the audience's conditions; each is marked above.` });
      }
    });
}

/** What each draft path is called on the form, for the summary of problems. */
export function draftFieldLabel(path: string): string {
  const n = (i: string) => Number(i) + 1;
  const rules: Array<[RegExp, (m: RegExpExecArray) => string]> = [
    [/^offerId$/, () => "Offer id"],
    [/^name$/, () => "Name"],
    [/^description$/, () => "Description"],
    [/^image$/, () => "Image URL"],
    [/^rewards\[(\d+)\]\.(\w+)$/, (m) => `Reward ${n(m[1])} ${REWARD_PART[m[2]] ?? m[2]}`],
    [/^rewards/, () => "Rewards"],
    [/^variants\[(\d+)\]\.rewards\[(\d+)\]\.(\w+)$/, (m) => `Variant ${n(m[1])} reward ${n(m[2])} ${REWARD_PART[m[3]] ?? m[3]}`],
    [/^variants\[(\d+)\]\.(\w+)$/, (m) => `Variant ${n(m[1])} ${VARIANT_PART[m[2]] ?? m[2]}`],
    [/^variants/, () => "Variants"],
    [/^conditions\[(\d+)\]\.(\w+)$/, (m) => `Completion condition ${n(m[1])} ${CONDITION_PART[m[2]] ?? m[2]}`],
    [/^conditions/, () => "Completion conditions"],
    [/^durationAmount$/, () => "Duration"],
    [/^priority$/, () => "Priority"],
    [/^audience/, () => "Audience"],
    [/^rollout$/, () => "Rollout"],
    [/^startsAt$/, () => "Starts"],
    [/^endsAt$/, () => "Ends"],
    [/^maxActivationsPerPlayer$/, () => "Activations per player"],
    [/^cooldownAmount$/, () => "Cooldown"],
    [/^maxClaimsTotal$/, () => "Claims in total"],
  ];
  for (const [pattern, label] of rules) {
    const m = pattern.exec(path);
    if (m) return label(m);
  }
  return path || "The offer";
}
// As the form's labels read them (its accessible names: "Reward 1 Amount").
const REWARD_PART: Record<string, string> = { kind: "Kind", rewardId: "Id", name: "Name", amount: "Amount", image: "Image URL" };
const VARIANT_PART: Record<string, string> = { variantId: "Id", name: "Name", weight: "Weight", rewards: "rewards" };
const CONDITION_PART: Record<string, string> = { id: "Currency", name: "Name shown", amount: "Amount to spend" };

// ---------- conversions ----------

export function secondsOf(amount: string, unit: DurationUnit): number | null {
  const n = Number(amount.trim());
  return amount.trim() && Number.isFinite(n) ? n * DURATION_UNITS[unit] : null;
}

/** The largest unit that divides the seconds, for showing a stored duration. */
export function splitSeconds(seconds: number): { amount: string; unit: DurationUnit } {
  for (const unit of ["days", "hours", "minutes"] as const) if (seconds > 0 && seconds % DURATION_UNITS[unit] === 0) return { amount: String(seconds / DURATION_UNITS[unit]), unit };
  return { amount: String(seconds), unit: "seconds" };
}

/** A datetime-local value read as UTC, as ISO 8601; null when empty. */
export function toIso(local: string): string | null {
  if (!local) return null;
  const withSeconds = /T\d\d:\d\d$/.test(local) ? `${local}:00` : local;
  return `${withSeconds}Z`;
}

/** An ISO instant as a datetime-local value in UTC. */
export const toLocalUtc = (iso: string | null | undefined) => (iso ? new Date(iso).toISOString().slice(0, 16) : "");

const num = (text: string) => Number(text.trim());

function rewardOf(r: RewardDraft): Reward {
  return { kind: r.kind, rewardId: r.rewardId.trim(), name: r.name.trim(), amount: num(r.amount), ...(r.image.trim() ? { image: r.image.trim() } : {}) };
}

/** The definition the draft stands for, as the offers contract takes it (status left out: an edit keeps it). */
export function toDefinitionInput(draft: DefinitionDraft): OfferDefinitionDraft {
  const variants = draft.variantsOn
    ? draft.variants.map((v) => ({ variantId: v.variantId.trim(), ...(v.name.trim() ? { name: v.name.trim() } : {}), weight: num(v.weight), rewards: v.rewards.map(rewardOf) }))
    : null;
  const rewards = draft.rewards.filter((r) => !(variants && isBlankReward(r))).map(rewardOf);
  const startsAt = toIso(draft.startsAt);
  const endsAt = toIso(draft.endsAt);
  return {
    name: draft.name.trim(),
    description: draft.description,
    ...(draft.image.trim() ? { image: draft.image.trim() } : {}),
    // With variants, no rewards of its own means the first variant's.
    ...(rewards.length > 0 || !variants ? { rewards } : {}),
    completionConditions: draft.conditions.map((c) => ({ kind: "spendCurrency" as const, id: c.id, name: c.name.trim(), amount: num(c.amount) })),
    realTime: draft.realTime,
    durationSeconds: secondsOf(draft.durationAmount, draft.durationUnit) ?? 0,
    priority: num(draft.priority),
    audience: draft.targeted ? audienceFaults(draft.audience).built.rule : null,
    schedule: { startsAt, endsAt },
    limits: {
      maxActivationsPerPlayer: num(draft.maxActivationsPerPlayer),
      cooldownSeconds: secondsOf(draft.cooldownAmount, draft.cooldownUnit) ?? 0,
      maxClaimsTotal: draft.maxClaimsTotal.trim() ? num(draft.maxClaimsTotal) : null,
    },
    rollout: num(draft.rollout),
    variants,
  };
}

/** Problems the contract still finds in a draft the form let through (a safety net; paths are the contract's). */
export function contractIssues(draft: DefinitionDraft): string[] {
  const parsed = OfferDefinitionInput.safeParse(toDefinitionInput(draft));
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".") || "offer"}: ${i.message}`);
}

const rewardDraftOf = (r: Reward): RewardDraft => ({ kind: r.kind, rewardId: r.rewardId, name: r.name, amount: String(r.amount), image: r.image ?? "" });

/** The draft of a stored definition, for editing. */
export function draftOf(definition: OfferDefinition): DefinitionDraft {
  const duration = splitSeconds(definition.durationSeconds);
  const cooldown = definition.limits.cooldownSeconds > 0 ? splitSeconds(definition.limits.cooldownSeconds) : { amount: "0", unit: "hours" as const };
  const variants = definition.variants ?? [];
  return {
    offerId: definition.offerId,
    name: definition.name,
    description: definition.description,
    image: definition.image ?? "",
    rewards: definition.rewards.map(rewardDraftOf),
    variantsOn: variants.length > 0,
    variants: variants.map((v) => ({ variantId: v.variantId, name: v.name ?? "", weight: String(v.weight), rewards: v.rewards.map(rewardDraftOf) })),
    conditions: (definition.completionConditions ?? []).map((c) => ({ id: c.id, name: c.name, amount: String(c.amount) })),
    realTime: definition.realTime,
    durationAmount: duration.amount,
    durationUnit: duration.unit,
    priority: String(definition.priority),
    targeted: definition.audience !== null,
    audience: fromRule(definition.audience),
    rollout: String(definition.rollout),
    startsAt: toLocalUtc(definition.schedule.startsAt),
    endsAt: toLocalUtc(definition.schedule.endsAt),
    maxActivationsPerPlayer: String(definition.limits.maxActivationsPerPlayer),
    cooldownAmount: cooldown.amount,
    cooldownUnit: cooldown.unit,
    maxClaimsTotal: definition.limits.maxClaimsTotal === null ? "" : String(definition.limits.maxClaimsTotal),
  };
}
