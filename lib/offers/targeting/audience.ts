/**
 * Audience rules: which players an offer definition targets, as JSON data over the player's
 * snapshot — never code. A rule is `{all: [...]}`, `{any: [...]}`, `{not: rule}` or a comparison
 * `{field, op, value}`. Pure TypeScript (no database, no framework): the service, its SQL
 * compiler (./audience-sql) and the portal's audience builder share it.
 *
 * Semantics, the same in every evaluator:
 * - `all: []` matches every player; `any: []` matches none.
 * - A comparison on a field the snapshot lacks (a currency or level it never reported) is false,
 *   whatever the op — except `exists`, which tests exactly that. `not` inverts a whole rule.
 * - Numbers compare as numbers; `username` compares as text, only with eq, ne, in and exists.
 */

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

/** The snapshot fields a rule reads (a player row or an API snapshot both fit). */
export interface AudienceSnapshot {
  username: string;
  daysInGame: number;
  loginStreak: number;
  trustScore: number;
  currencies: Record<string, { balance: number; in: number; out: number }>;
  levels: Record<string, { level: number }>;
}

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

/** The value of a field in a snapshot, or undefined when the snapshot lacks it. */
export function fieldValue(field: AudienceField, snapshot: AudienceSnapshot): number | string | undefined {
  switch (field.kind) {
    case "core":
      return snapshot[field.name];
    case "username":
      return snapshot.username;
    case "currency": {
      const currency = Object.hasOwn(snapshot.currencies, field.id) ? snapshot.currencies[field.id] : undefined;
      return currency?.[field.counter];
    }
    case "level": {
      const level = Object.hasOwn(snapshot.levels, field.name) ? snapshot.levels[field.name] : undefined;
      return level?.level;
    }
  }
}

/** One comparison against a snapshot (see the semantics at the top). */
export function compare(comparison: AudienceComparison, snapshot: AudienceSnapshot): boolean {
  const field = parseAudienceField(comparison.field);
  if (!field) return false;
  const actual = fieldValue(field, snapshot);
  if (comparison.op === "exists") return (actual !== undefined) === (comparison.value ?? true);
  if (actual === undefined) return false;
  const v = comparison.value;
  switch (comparison.op) {
    case "eq":
      return actual === v;
    case "ne":
      return actual !== v;
    case "gt":
      return (actual as number) > (v as number);
    case "gte":
      return (actual as number) >= (v as number);
    case "lt":
      return (actual as number) < (v as number);
    case "lte":
      return (actual as number) <= (v as number);
    case "in":
      return (v as Array<number | string>).includes(actual);
    case "between": {
      const [low, high] = v as [number, number];
      return (actual as number) >= low && (actual as number) <= high;
    }
  }
}

/** Whether the snapshot matches the rule. */
export function matchesAudience(rule: AudienceRule, snapshot: AudienceSnapshot): boolean {
  if ("all" in rule) return rule.all.every((r) => matchesAudience(r, snapshot));
  if ("any" in rule) return rule.any.some((r) => matchesAudience(r, snapshot));
  if ("not" in rule) return !matchesAudience(rule.not, snapshot);
  return compare(rule, snapshot);
}

/**
 * Why a snapshot does not match: the comparisons that decided it, with the player's values, in
 * words a person reads ("loginStreak is 1, needs ≥ 3"). Empty when it matches.
 */
export function audienceMisses(rule: AudienceRule, snapshot: AudienceSnapshot): string[] {
  if (matchesAudience(rule, snapshot)) return [];
  const misses: string[] = [];
  const walk = (node: AudienceRule, negated: boolean): void => {
    if ("all" in node || "any" in node) {
      const members = "all" in node ? node.all : node.any;
      // Under negation an all-group fails when every member holds, so those are the deciding ones.
      for (const member of members) if (matchesAudience(member, snapshot) === negated) walk(member, negated);
      if (members.length === 0) misses.push(negated ? "not (every player)" : "an empty any-group matches no player");
      return;
    }
    if ("not" in node) return walk(node.not, !negated);
    const field = parseAudienceField(node.field);
    const actual = field ? fieldValue(field, snapshot) : undefined;
    const has = actual === undefined ? "has none" : `is ${JSON.stringify(actual)}`;
    misses.push(`${node.field} ${has}, needs ${negated ? "not " : ""}${describeComparison(node)}`);
  };
  walk(rule, false);
  return misses.slice(0, 10);
}

const OP_WORDS: Record<AudienceOp, string> = { eq: "=", ne: "≠", gt: ">", gte: "≥", lt: "<", lte: "≤", in: "in", between: "between", exists: "exists" };

function describeComparison(c: AudienceComparison): string {
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
