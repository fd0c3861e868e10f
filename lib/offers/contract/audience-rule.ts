/**
 * The grammar of audience rules: which players an offer definition targets, as JSON data over the
 * player's snapshot — never code. A rule is `{all: [...]}`, `{any: [...]}`, `{not: rule}` or a comparison
 * `{field, op, value}`. Part of the contract: the service validates rules with it (the AudienceRule
 * schema), the portal's audience builder validates, describes and explains them with the same code.
 * The evaluator (which players match) is ../targeting/audience.ts, with the semantics.
 */
import { z } from "zod";

export const AUDIENCE_OPS = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "between", "exists"] as const;
export type AudienceOp = (typeof AUDIENCE_OPS)[number];

export const CORE_NUMBER_FIELDS = ["daysInGame", "loginStreak", "trustScore"] as const;
export const CURRENCY_COUNTERS = ["balance", "in", "out"] as const;
export type CurrencyCounter = (typeof CURRENCY_COUNTERS)[number];

export type AudienceValue = number | string | boolean | Array<number | string>;
export interface AudienceComparison {
  field: string;
  op: AudienceOp;
  value?: AudienceValue;
}
export type AudienceRule = { all: AudienceRule[] } | { any: AudienceRule[] } | { not: AudienceRule } | AudienceComparison;

/** Where a field's value lives in a snapshot. */
export type AudienceField =
  | { kind: "core"; name: (typeof CORE_NUMBER_FIELDS)[number] }
  | { kind: "username" }
  | { kind: "currency"; id: string; counter: CurrencyCounter }
  | { kind: "level"; name: string };

export const AUDIENCE_LIMITS = { depth: 6, comparisons: 50, inValues: 100, text: 200 } as const;

export const AUDIENCE_FIELD_RULE =
  "daysInGame, loginStreak, trustScore, username, currencies.<id>.balance|in|out or levels.<name>.level";

/** Parses a field path; currency ids and level names may contain dots (the counter is the last segment). */
export function parseAudienceField(field: string): AudienceField | null {
  if ((CORE_NUMBER_FIELDS as readonly string[]).includes(field)) return { kind: "core", name: field as (typeof CORE_NUMBER_FIELDS)[number] };
  if (field === "username") return { kind: "username" };
  if (field.startsWith("currencies.")) {
    const rest = field.slice("currencies.".length);
    const dot = rest.lastIndexOf(".");
    if (dot <= 0) return null;
    const counter = rest.slice(dot + 1);
    const id = rest.slice(0, dot);
    if (!(CURRENCY_COUNTERS as readonly string[]).includes(counter) || id.length > AUDIENCE_LIMITS.text) return null;
    return { kind: "currency", id, counter: counter as CurrencyCounter };
  }
  if (field.startsWith("levels.") && field.endsWith(".level")) {
    const name = field.slice("levels.".length, -".level".length);
    if (!name || name.length > AUDIENCE_LIMITS.text) return null;
    return { kind: "level", name };
  }
  return null;
}

export interface AudienceIssue {
  path: Array<string | number>;
  message: string;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isText = (v: unknown): v is string => typeof v === "string" && v.length <= AUDIENCE_LIMITS.text;

/**
 * Every fault of a candidate rule, each with the path of its place in the rule (relative to the
 * rule), so an API answer can point at it. An empty list means the value is an AudienceRule.
 */
export function audienceIssues(rule: unknown): AudienceIssue[] {
  const issues: AudienceIssue[] = [];
  let comparisons = 0;
  const visit = (node: unknown, path: Array<string | number>, depth: number): void => {
    if (issues.length >= 20) return;
    if (!isPlainObject(node)) {
      issues.push({ path, message: "a rule is an object: {all: [...]}, {any: [...]}, {not: rule} or {field, op, value}" });
      return;
    }
    if (depth > AUDIENCE_LIMITS.depth) {
      issues.push({ path, message: `rules nest at most ${AUDIENCE_LIMITS.depth} levels deep` });
      return;
    }
    const keys = Object.keys(node);
    if ("all" in node || "any" in node) {
      const key = "all" in node ? "all" : "any";
      if (keys.length !== 1) {
        issues.push({ path, message: `a group has only the key ${key}` });
        return;
      }
      const members = node[key];
      if (!Array.isArray(members)) {
        issues.push({ path: [...path, key], message: "a group holds an array of rules" });
        return;
      }
      members.forEach((member, i) => visit(member, [...path, key, i], depth + 1));
      return;
    }
    if ("not" in node) {
      if (keys.length !== 1) {
        issues.push({ path, message: "a negation has only the key not" });
        return;
      }
      visit(node.not, [...path, "not"], depth + 1);
      return;
    }
    comparisons += 1;
    if (comparisons === AUDIENCE_LIMITS.comparisons + 1) issues.push({ path, message: `a rule has at most ${AUDIENCE_LIMITS.comparisons} comparisons` });
    const unknownKeys = keys.filter((k) => k !== "field" && k !== "op" && k !== "value");
    if (unknownKeys.length) issues.push({ path: [...path, unknownKeys[0]], message: "unknown key: a comparison has field, op and value" });
    const field = typeof node.field === "string" ? parseAudienceField(node.field) : null;
    if (!field) {
      issues.push({ path: [...path, "field"], message: `unknown field: one of ${AUDIENCE_FIELD_RULE}` });
    }
    if (typeof node.op !== "string" || !(AUDIENCE_OPS as readonly string[]).includes(node.op)) {
      issues.push({ path: [...path, "op"], message: `unknown op: one of ${AUDIENCE_OPS.join(", ")}` });
      return;
    }
    if (!field) return;
    const message = valueFault(field, node.op as AudienceOp, node.value, "value" in node);
    if (message) issues.push({ path: [...path, "value"], message });
  };
  visit(rule, [], 1);
  return issues;
}

/** Why a comparison's value does not fit its field and op, or null. */
function valueFault(field: AudienceField, op: AudienceOp, value: unknown, present: boolean): string | null {
  const text = field.kind === "username";
  const scalar = text ? isText : isNumber;
  const kind = text ? "a text of at most 200 characters" : "a finite number";
  switch (op) {
    case "exists":
      return !present || typeof value === "boolean" ? null : "exists takes true, false or no value";
    case "eq":
    case "ne":
      return scalar(value) ? null : `${op} on ${text ? "username" : "a number field"} takes ${kind}`;
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      if (text) return `${op} compares numbers; username takes eq, ne, in or exists`;
      return isNumber(value) ? null : `${op} takes a finite number`;
    case "in":
      if (!Array.isArray(value) || value.length === 0 || value.length > AUDIENCE_LIMITS.inValues) return `in takes a list of 1–${AUDIENCE_LIMITS.inValues} values`;
      return value.every(scalar) ? null : `every value of in is ${kind}`;
    case "between":
      if (text) return "between compares numbers; username takes eq, ne, in or exists";
      if (!Array.isArray(value) || value.length !== 2 || !value.every(isNumber)) return "between takes [low, high], two finite numbers";
      return (value[0] as number) <= (value[1] as number) ? null : "between takes [low, high] with low ≤ high";
  }
}

const OP_WORDS: Record<AudienceOp, string> = { eq: "=", ne: "≠", gt: ">", gte: "≥", lt: "<", lte: "≤", in: "in", between: "between", exists: "exists" };

/** One comparison in words ("≥ 3", "one of 1, 2"), as lists and explanations show it. */
export function describeComparison(c: AudienceComparison): string {
  if (c.op === "exists") return c.value === false ? "to be absent" : "to exist";
  if (c.op === "between" && Array.isArray(c.value)) return `between ${c.value[0]} and ${c.value[1]}`;
  if (c.op === "in" && Array.isArray(c.value)) return `one of ${c.value.map((v) => JSON.stringify(v)).join(", ")}`;
  return `${OP_WORDS[c.op]} ${JSON.stringify(c.value)}`;
}

/** The rule in one line for lists ("loginStreak ≥ 3 and (currencies.gems.balance > 0 or …)"). */
export function describeAudience(rule: AudienceRule | null | undefined): string {
  if (!rule) return "assigned only explicitly";
  const text = (node: AudienceRule, top: boolean): string => {
    if ("all" in node || "any" in node) {
      const members = "all" in node ? node.all : node.any;
      if (members.length === 0) return "all" in node ? "every player" : "no player";
      const joined = members.map((m) => text(m, false)).join("all" in node ? " and " : " or ");
      return top || members.length === 1 ? joined : `(${joined})`;
    }
    if ("not" in node) return `not ${text(node.not, false)}`;
    if (node.op === "exists") return `${node.field} ${node.value === false ? "absent" : "exists"}`;
    return `${node.field} ${describeComparison(node)}`;
  };
  return text(rule, true);
}

/**
 * A rule over the player's snapshot (the grammar above; ../targeting/audience evaluates it). Validated by
 * walking it, so a fault is reported at its exact path (`audience.all.1.op: unknown op …`) rather than as
 * "invalid union".
 */
export const AudienceRule = z
  .custom<AudienceRule>()
  .superRefine((value, ctx) => {
    for (const issue of audienceIssues(value)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  })
  .meta({
    description:
      "A rule over the player's snapshot: {all: [rule…]}, {any: [rule…]}, {not: rule}, or a comparison {field, op, value}. " +
      `Fields: ${AUDIENCE_FIELD_RULE}. Ops: ${AUDIENCE_OPS.join(", ")} (in: a list; between: [low, high]; exists: true/false). ` +
      "A comparison on a currency or level the player never reported is false (test it with exists). {all: []} matches every player.",
    examples: [{ all: [{ field: "loginStreak", op: "gte", value: 3 }, { field: "currencies.gems.out", op: "lt", value: 100 }] }],
  });
