/**
 * Scorecards: rules kept as YAML in the config repository (SCORECARD_RULES_FILE), so they change by
 * review like every record; each component's score (rules passed of the rules that apply to it) and
 * level. Pure: no git, no clock, no database; client-safe (the component page renders the results).
 *
 * A level is reached when every rule of that level and of every lower level passes (levels are listed
 * lowest first): the highest such level is the component's level, none when a rule of the lowest
 * level fails. A rule that does not apply to a component (API docs of a library) neither passes nor
 * fails: it is out of the score and out of the level.
 *
 * Most rules are a function of the record alone, so the levels of a commit are the same on every portal
 * instance that loaded that commit. Two read facts the portal database and source control hold (a
 * component's last release, its oldest open review) at a day: the instances read them from the same place
 * on a timer, so they agree once each has read them (docs/decisions/2026-12-07-scorecards-in-the-config-repository.md).
 * Until an instance has read them, those rules do not apply.
 */
import { parse } from "yaml";
import { z } from "zod";
import { COMPONENT_KINDS, DESCRIPTION_MAX, environmentSchema, LIFECYCLES, type Component } from "./schema";

/** Where the rules live in the config repository (a folder of their own: never read as a record). */
export const SCORECARD_RULES_FILE = "scorecards/rules.yaml";
/** The most rules a file may hold: a component's results are kept as bit masks. */
export const RULES_MAX = 30;
export const LEVELS_MAX = 10;
export const RULE_TITLE_MAX = 100;
/** A level or rule id: lowercase letters, digits and hyphens, at most 40. */
export const SCORECARD_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
/** The level of a component that does not reach the lowest level (in filters and counts). */
export const NO_LEVEL = "none";

const name = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .regex(SCORECARD_NAME_PATTERN, `${what} must be lowercase letters, digits and hyphens (1–40, no leading or trailing hyphen)`)
    .refine((n) => n !== NO_LEVEL, { message: `"${NO_LEVEL}" is reserved for components below every level` });

const kindList = z
  .array(z.enum(COMPONENT_KINDS, { error: `must be one of ${COMPONENT_KINDS.join(", ")}` }))
  .min(1, "list at least one kind");

export const scorecardCheckSchema = z.discriminatedUnion(
  "type",
  [
    z.strictObject({
      type: z.literal("minOwners"),
      count: z.int({ error: "count must be a whole number" }).min(1, "count must be at least 1").max(20, "count must be at most 20"),
    }),
    z.strictObject({ type: z.literal("environment"), environment: environmentSchema }),
    z.strictObject({
      type: z.literal("description"),
      minLength: z.int({ error: "minLength must be a whole number" }).min(1, "minLength must be at least 1").max(DESCRIPTION_MAX, `minLength must be at most ${DESCRIPTION_MAX}`).default(1),
    }),
    z.strictObject({ type: z.literal("providesApis"), kinds: kindList.default(["service"]) }),
    z.strictObject({
      type: z.literal("releasedWithin"),
      days: z.int({ error: "days must be a whole number" }).min(1, "days must be at least 1").max(3650, "days must be at most 3650"),
    }),
    z.strictObject({
      type: z.literal("reviewsDecidedWithin"),
      days: z.int({ error: "days must be a whole number" }).min(1, "days must be at least 1").max(365, "days must be at most 365"),
    }),
    z.strictObject({
      type: z.literal("lifecycle"),
      in: z.array(z.enum(LIFECYCLES, { error: `must be one of ${LIFECYCLES.join(", ")}` })).min(1, "list at least one lifecycle"),
    }),
  ],
  { error: "type must be one of minOwners, environment, description, providesApis, lifecycle, releasedWithin, reviewsDecidedWithin" },
);

export const scorecardRuleSchema = z.strictObject({
  id: name("a rule id"),
  title: z.string({ error: "title must be text" }).trim().min(1, "title must not be empty").max(RULE_TITLE_MAX, `title must be at most ${RULE_TITLE_MAX} characters`),
  level: name("a rule's level"),
  check: scorecardCheckSchema,
});

export const scorecardRulesSchema = z
  .strictObject({
    levels: z
      .array(name("a level"), { error: "levels must be a list, lowest first" })
      .min(1, "list at least one level")
      .max(LEVELS_MAX, `list at most ${LEVELS_MAX} levels`)
      .refine((l) => new Set(l).size === l.length, { message: "a level is listed twice" }),
    rules: z.array(scorecardRuleSchema, { error: "rules must be a list" }).max(RULES_MAX, `list at most ${RULES_MAX} rules`),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.rules.forEach((rule, i) => {
      if (seen.has(rule.id)) ctx.addIssue({ code: "custom", path: ["rules", i, "id"], message: `the rule id "${rule.id}" is used twice` });
      seen.add(rule.id);
      if (!file.levels.includes(rule.level)) ctx.addIssue({ code: "custom", path: ["rules", i, "level"], message: `"${rule.level}" is not one of the levels (${file.levels.join(", ")})` });
    });
  });

export type ScorecardCheck = z.output<typeof scorecardCheckSchema>;
export type ScorecardRule = z.output<typeof scorecardRuleSchema>;
export type ScorecardRules = z.output<typeof scorecardRulesSchema>;

/** The rules in force when the config repository holds no rules file (the same as the shipped config/scorecards/rules.yaml). */
export const DEFAULT_SCORECARD_RULES: ScorecardRules = {
  levels: ["bronze", "silver", "gold"],
  rules: [
    { id: "description", title: "Has a description", level: "bronze", check: { type: "description", minLength: 1 } },
    { id: "two-owners", title: "At least two owners", level: "bronze", check: { type: "minOwners", count: 2 } },
    { id: "production", title: "Runs in production", level: "silver", check: { type: "environment", environment: "production" } },
    { id: "lifecycle", title: "Lifecycle set", level: "silver", check: { type: "lifecycle", in: ["experimental", "production", "deprecated"] } },
    { id: "reviews-decided", title: "No review open longer than 7 days", level: "silver", check: { type: "reviewsDecidedWithin", days: 7 } },
    { id: "api-docs", title: "Services document their APIs", level: "gold", check: { type: "providesApis", kinds: ["service"] } },
    { id: "recent-release", title: "Released in the last 90 days", level: "gold", check: { type: "releasedWithin", days: 90 } },
  ],
};

/** What the time-based rules read, per component name, judged at `today`. */
export interface ScorecardFacts {
  /** Midnight UTC of the day the facts are judged at (ms); 0: not read yet (those rules do not apply). */
  today: number;
  /** When each component was last released (any environment), ms. */
  lastRelease: ReadonlyMap<string, number>;
  /** When each component's oldest open review was opened, ms. */
  oldestOpenReview: ReadonlyMap<string, number>;
}

export const NO_FACTS: ScorecardFacts = { today: 0, lastRelease: new Map(), oldestOpenReview: new Map() };
const DAY_MS = 86_400_000;

/** Midnight UTC of `now`'s day (ms). */
export function dayOf(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS;
}

/** Whether the rules read facts (releases, reviews) at all. */
export function readsFacts(rules: ScorecardRules): boolean {
  return rules.rules.some((r) => r.check.type === "releasedWithin" || r.check.type === "reviewsDecidedWithin");
}

export interface ScorecardRulesIssue {
  path: string;
  message: string;
}

/** The rules from the YAML text of the rules file, or the issues that refuse it (for people: path and message). */
export function parseScorecardRules(text: string): { ok: true; rules: ScorecardRules } | { ok: false; issues: ScorecardRulesIssue[] } {
  let raw: unknown;
  try {
    raw = parse(text, { maxAliasCount: 100 });
  } catch (error) {
    return { ok: false, issues: [{ path: "", message: `not valid YAML: ${(error as Error).message.split("\n")[0]}` }] };
  }
  const result = scorecardRulesSchema.safeParse(raw ?? {});
  if (result.success) return { ok: true, rules: result.data };
  return { ok: false, issues: result.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) };
}

/** One rule's outcome for one component: why it passed or failed, in words. */
export interface RuleResult {
  id: string;
  title: string;
  level: string;
  /** null: the rule does not apply to this component. */
  passed: boolean | null;
  why: string;
}

const daysAgo = (today: number, at: number) => Math.max(0, Math.floor((today - dayOf(at)) / DAY_MS));
const dateOf = (at: number) => new Date(at).toISOString().slice(0, 10);

function checkRule(check: ScorecardCheck, c: Component, facts: ScorecardFacts): { passed: boolean | null; why: string } {
  switch (check.type) {
    case "releasedWithin": {
      if (!facts.today) return { passed: null, why: "release data not read yet" };
      const at = facts.lastRelease.get(c.metadata.name);
      if (at === undefined) return { passed: false, why: "no release recorded in the portal" };
      const age = daysAgo(facts.today, at);
      return { passed: age <= check.days, why: `last released ${dateOf(at)} (${age} day${age === 1 ? "" : "s"} ago); within ${check.days} wanted` };
    }
    case "reviewsDecidedWithin": {
      if (!facts.today) return { passed: null, why: "review data not read yet" };
      const at = facts.oldestOpenReview.get(c.metadata.name);
      if (at === undefined) return { passed: true, why: "no open review" };
      const age = daysAgo(facts.today, at);
      return { passed: age <= check.days, why: `its oldest open review was opened ${dateOf(at)} (${age} day${age === 1 ? "" : "s"} ago); at most ${check.days} wanted` };
    }
    case "minOwners": {
      const n = c.spec.owners.length;
      return { passed: n >= check.count, why: `${n} owner${n === 1 ? "" : "s"} listed; at least ${check.count} wanted` };
    }
    case "environment": {
      const has = c.spec.environments.includes(check.environment);
      return { passed: has, why: has ? `lists ${check.environment}` : `${check.environment} is not among its environments (${c.spec.environments.join(", ") || "none"})` };
    }
    case "description": {
      const n = c.metadata.description?.trim().length ?? 0;
      if (n === 0) return { passed: false, why: "metadata.description is not set" };
      return { passed: n >= check.minLength, why: n >= check.minLength ? `${n} characters` : `${n} characters; at least ${check.minLength} wanted` };
    }
    case "providesApis": {
      if (!(check.kinds as readonly string[]).includes(c.spec.kind)) return { passed: null, why: `applies to ${check.kinds.join(", ")} only` };
      const n = c.spec.providesApis?.length ?? 0;
      return { passed: n > 0, why: n > 0 ? `provides ${n} API${n === 1 ? "" : "s"} (spec.providesApis)` : "spec.providesApis lists no API" };
    }
    case "lifecycle": {
      const l = c.spec.lifecycle;
      if (!l) return { passed: false, why: "spec.lifecycle is not set" };
      const ok = (check.in as readonly string[]).includes(l);
      return { passed: ok, why: ok ? `lifecycle ${l}` : `lifecycle ${l}; wanted ${check.in.join(" or ")}` };
    }
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const orList = (items: readonly string[]) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`);

/** What a rule checks, said for a person (the scorecards page lists the rules in force this way). */
export function checkInWords(check: ScorecardCheck): string {
  switch (check.type) {
    case "minOwners":
      return `The record names at least ${plural(check.count, "owner")}.`;
    case "environment":
      return `The record lists the ${check.environment} environment.`;
    case "description":
      return `The record has a description of at least ${plural(check.minLength, "character")}.`;
    case "providesApis":
      return `A component of kind ${orList(check.kinds)} lists at least one API it provides; other kinds are left out.`;
    case "lifecycle":
      return `The record's lifecycle is ${orList(check.in)}.`;
    case "releasedWithin":
      return `A release was made through the portal in the last ${plural(check.days, "day")}.`;
    case "reviewsDecidedWithin":
      return `No merge request on the component has been open longer than ${plural(check.days, "day")}.`;
  }
}

/** A component's score kept compactly: bit i is rule i of the rules file. */
export interface ScoreBits {
  /** Rules that apply to the component. */
  applies: number;
  /** Rules that pass (a subset of applies). */
  passed: number;
  /** Index into rules.levels of the level reached; -1 for none. */
  level: number;
}

/** Bits of the applicable rules of each level, lowest first (precomputed once per rules file). */
function levelOfBits(rules: ScorecardRules, applies: number, passed: number): number {
  let level = -1;
  for (let l = 0; l < rules.levels.length; l++) {
    const name = rules.levels[l];
    for (let i = 0; i < rules.rules.length; i++) {
      if (rules.rules[i].level === name && applies & (1 << i) && !(passed & (1 << i))) return level;
    }
    level = l;
  }
  return level;
}

export function scoreBits(rules: ScorecardRules, c: Component, facts: ScorecardFacts = NO_FACTS): ScoreBits {
  let applies = 0;
  let passed = 0;
  for (let i = 0; i < rules.rules.length; i++) {
    const r = checkRule(rules.rules[i].check, c, facts);
    if (r.passed === null) continue;
    applies |= 1 << i;
    if (r.passed) passed |= 1 << i;
  }
  return { applies, passed, level: levelOfBits(rules, applies, passed) };
}

function popcount(n: number): number {
  let c = 0;
  for (let x = n >>> 0; x; x &= x - 1) c++;
  return c;
}

/** A component's scorecard as people read it. */
export interface ComponentScorecard {
  /** The level reached, or null below the lowest. */
  level: string | null;
  passed: number;
  total: number;
  results: RuleResult[];
}

export function evaluateComponent(rules: ScorecardRules, c: Component, facts: ScorecardFacts = NO_FACTS): ComponentScorecard {
  const results: RuleResult[] = rules.rules.map((rule) => ({ id: rule.id, title: rule.title, level: rule.level, ...checkRule(rule.check, c, facts) }));
  const bits = scoreBits(rules, c, facts);
  return { level: bits.level < 0 ? null : rules.levels[bits.level], passed: popcount(bits.passed), total: popcount(bits.applies), results };
}

/** Rank of a level among `levels` (lowest first): 0 for none, 1 for the lowest level, …; -1 for a name that is not a level. */
export function rankOfLevel(level: string, levels: readonly string[]): number {
  if (level === NO_LEVEL) return 0;
  const i = levels.indexOf(level);
  return i < 0 ? -1 : i + 1;
}

/** What the rules and levels of a rollup say: components per level (none included), and the mean score. */
export interface LevelRollup {
  components: number;
  /** Count per level name and NO_LEVEL, every level present (zero included). */
  levels: Record<string, number>;
  /** Rules passed over rules applying, summed over the components (null with no rule applying). */
  score: number | null;
}

export function emptyRollup(rules: ScorecardRules): LevelRollup {
  return { components: 0, levels: Object.fromEntries([NO_LEVEL, ...rules.levels].map((l) => [l, 0])), score: null };
}

/** The rollup of a set of scores. */
export function rollup(rules: ScorecardRules, scores: Iterable<ScoreBits>): LevelRollup {
  const out = emptyRollup(rules);
  let passed = 0;
  let total = 0;
  for (const s of scores) {
    out.components++;
    const name = s.level < 0 ? NO_LEVEL : rules.levels[s.level];
    out.levels[name]++;
    passed += popcount(s.passed);
    total += popcount(s.applies);
  }
  out.score = total === 0 ? null : passed / total;
  return out;
}
