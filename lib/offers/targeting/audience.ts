/**
 * Audience rules evaluated: whether a player's snapshot matches a rule, and why not. The rules'
 * grammar (what a rule is, its validation and its words) is part of the API contract
 * (../contract/audience-rule.ts); its SQL twin is ./audience-sql. Pure TypeScript (no database, no framework).
 *
 * Semantics, the same in every evaluator:
 * - `all: []` matches every player; `any: []` matches none.
 * - A comparison on a field the snapshot lacks (a currency or level it never reported) is false,
 *   whatever the op — except `exists`, which tests exactly that. `not` inverts a whole rule.
 * - Numbers compare as numbers; `username` compares as text, only with eq, ne, in and exists.
 */
import { describeComparison, parseAudienceField, type AudienceComparison, type AudienceField, type AudienceRule } from "../contract/audience-rule";

/** The snapshot fields a rule reads (a player row or an API snapshot both fit). */
export interface AudienceSnapshot {
  username: string;
  daysInGame: number;
  loginStreak: number;
  trustScore: number;
  currencies: Record<string, { balance: number; in: number; out: number }>;
  levels: Record<string, { level: number }>;
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
