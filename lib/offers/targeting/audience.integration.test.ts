/**
 * Audience rules: validation (each fault at its path), the evaluator against a plain reference
 * implementation on generated rules and snapshots, and the SQL compiler against the evaluator on
 * real rows (PGlite), the rollout bucket in SQL against the one in TypeScript included.
 */
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { fuzzParameters } from "@/test-support/fuzz";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOffersTestDatabase } from "@/test-support/offers/test-database";
import { players } from "../db/schema";
import { GameDirectory } from "../games";
import { SecretBox } from "../secret-box";
import { audienceIssues, describeAudience, type AudienceRule } from "../contract";
import { audienceMisses, matchesAudience, type AudienceSnapshot } from "./audience";
import { audienceSql, rolloutSql } from "./audience-sql";
import { inRollout } from "./rollout";

// ---------- a reference implementation, written plainly and separately ----------

function referenceValue(snapshot: AudienceSnapshot, field: string): number | string | undefined {
  if (field === "daysInGame" || field === "loginStreak" || field === "trustScore" || field === "username") return snapshot[field];
  const currency = /^currencies\.(.+)\.(balance|in|out)$/.exec(field);
  if (currency) {
    const entry = Object.prototype.hasOwnProperty.call(snapshot.currencies, currency[1]) ? snapshot.currencies[currency[1]] : undefined;
    return entry === undefined ? undefined : entry[currency[2] as "balance" | "in" | "out"];
  }
  const level = /^levels\.(.+)\.level$/.exec(field);
  if (level) {
    const entry = Object.prototype.hasOwnProperty.call(snapshot.levels, level[1]) ? snapshot.levels[level[1]] : undefined;
    return entry === undefined ? undefined : entry.level;
  }
  throw new Error(`unknown field ${field}`);
}

function reference(rule: AudienceRule, snapshot: AudienceSnapshot): boolean {
  if ("all" in rule) {
    for (const r of rule.all) if (!reference(r, snapshot)) return false;
    return true;
  }
  if ("any" in rule) {
    for (const r of rule.any) if (reference(r, snapshot)) return true;
    return false;
  }
  if ("not" in rule) return !reference(rule.not, snapshot);
  const value = referenceValue(snapshot, rule.field);
  if (rule.op === "exists") return rule.value === false ? value === undefined : value !== undefined;
  if (value === undefined) return false;
  const v = rule.value;
  const n = value as number;
  if (rule.op === "eq") return value === v;
  if (rule.op === "ne") return value !== v;
  if (rule.op === "gt") return n > (v as number);
  if (rule.op === "gte") return n >= (v as number);
  if (rule.op === "lt") return n < (v as number);
  if (rule.op === "lte") return n <= (v as number);
  if (rule.op === "in") return (v as unknown[]).indexOf(value) >= 0;
  const [low, high] = v as [number, number];
  return low <= (value as number) && (value as number) <= high;
}

// ---------- generators ----------

const CURRENCIES = ["gold", "gems", "a.b"];
const LEVELS = ["castle", "hero"];
const NAMES = ["ann", "bob", "", "Ann"];
const small = fc.oneof(fc.integer({ min: -3, max: 6 }), fc.constantFrom(0.5, 2.5, -0));

const snapshotArb: fc.Arbitrary<AudienceSnapshot> = fc.record({
  username: fc.constantFrom(...NAMES),
  daysInGame: small,
  loginStreak: small,
  trustScore: small,
  currencies: fc.dictionary(fc.constantFrom(...CURRENCIES), fc.record({ balance: small, in: small, out: small }), { maxKeys: 3 }),
  levels: fc.dictionary(fc.constantFrom(...LEVELS), fc.record({ level: small }), { maxKeys: 2 }),
});

const numberFields = ["daysInGame", "loginStreak", "trustScore", ...[...CURRENCIES, "none"].flatMap((c) => ["balance", "in", "out"].map((k) => `currencies.${c}.${k}`)), ...[...LEVELS, "none"].map((l) => `levels.${l}.level`)];

const comparisonArb: fc.Arbitrary<AudienceRule> = fc.oneof(
  fc.record({ field: fc.constantFrom(...numberFields), op: fc.constantFrom("eq", "ne", "gt", "gte", "lt", "lte" as const), value: small }),
  fc.record({ field: fc.constantFrom(...numberFields), op: fc.constant("in" as const), value: fc.array(small, { minLength: 1, maxLength: 4 }) }),
  fc.record({ field: fc.constantFrom(...numberFields), op: fc.constant("between" as const), value: fc.tuple(small, small).map(([a, b]) => (a <= b ? [a, b] : [b, a])) }),
  fc.record({ field: fc.constantFrom(...numberFields, "username"), op: fc.constant("exists" as const), value: fc.option(fc.boolean(), { nil: undefined }) }).map((c) => (c.value === undefined ? { field: c.field, op: c.op } : c)),
  fc.record({ field: fc.constant("username"), op: fc.constantFrom("eq", "ne" as const), value: fc.constantFrom(...NAMES) }),
  fc.record({ field: fc.constant("username"), op: fc.constant("in" as const), value: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }) }),
) as fc.Arbitrary<AudienceRule>;

const ruleArb: fc.Arbitrary<AudienceRule> = fc.letrec<{ rule: AudienceRule }>((tie) => ({
  rule: fc.oneof(
    { maxDepth: 4, depthIdentifier: "rule", withCrossShrink: true },
    comparisonArb,
    fc.record({ all: fc.array(tie("rule"), { maxLength: 3 }) }),
    fc.record({ any: fc.array(tie("rule"), { maxLength: 3 }) }),
    fc.record({ not: tie("rule") }),
  ),
})).rule;

describe("audience rules", () => {
  it("generated rules are valid, and the evaluator agrees with the reference implementation", () => {
    fc.assert(
      fc.property(ruleArb, snapshotArb, (rule, snapshot) => {
        expect(audienceIssues(rule)).toEqual([]);
        expect(matchesAudience(rule, snapshot)).toBe(reference(rule, snapshot));
        // The explanation is empty exactly when the snapshot matches.
        expect(audienceMisses(rule, snapshot).length === 0).toBe(matchesAudience(rule, snapshot));
      }),
      fuzzParameters(200),
    );
  });

  it("names each fault at its path", () => {
    expect(audienceIssues({ all: [{ field: "loginStreak", op: "gte", value: 3 }, { field: "loginStreak", op: "greater", value: 3 }] })).toEqual([
      { path: ["all", 1, "op"], message: expect.stringContaining("unknown op") },
    ]);
    expect(audienceIssues({ any: [{ not: { field: "wallet.gold", op: "eq", value: 1 } }] })).toEqual([{ path: ["any", 0, "not", "field"], message: expect.stringContaining("unknown field") }]);
    expect(audienceIssues({ field: "username", op: "gt", value: "a" })).toEqual([{ path: ["value"], message: expect.stringContaining("username takes eq, ne, in or exists") }]);
    expect(audienceIssues({ field: "daysInGame", op: "between", value: [5, 1] })).toEqual([{ path: ["value"], message: expect.stringContaining("low ≤ high") }]);
    expect(audienceIssues({ field: "currencies.gold.out", op: "in", value: [] })).toEqual([{ path: ["value"], message: expect.stringContaining("list of 1–100") }]);
    expect(audienceIssues({ all: [], extra: 1 })).toEqual([{ path: [], message: "a group has only the key all" }]);
    expect(audienceIssues("loginStreak > 3")).toHaveLength(1);
    let deep: AudienceRule = { field: "loginStreak", op: "exists" };
    for (let i = 0; i < 10; i++) deep = { not: deep };
    expect(audienceIssues(deep)[0].message).toContain("nest at most");
  });

  it("reads as a sentence and explains a miss with the player's values", () => {
    const rule: AudienceRule = { all: [{ field: "loginStreak", op: "gte", value: 3 }, { any: [{ field: "currencies.gems.balance", op: "gt", value: 0 }, { not: { field: "levels.castle.level", op: "exists" } }] }] };
    expect(describeAudience(rule)).toBe('loginStreak ≥ 3 and (currencies.gems.balance > 0 or not levels.castle.level exists)');
    expect(describeAudience({ all: [] })).toBe("every player");
    expect(describeAudience(null)).toBe("assigned only explicitly");
    const snapshot: AudienceSnapshot = { username: "x", daysInGame: 0, loginStreak: 1, trustScore: 0, currencies: {}, levels: { castle: { level: 2 } } };
    expect(audienceMisses(rule, snapshot)).toEqual(["loginStreak is 1, needs ≥ 3", "currencies.gems.balance has none, needs > 0", "levels.castle.level is 2, needs not to exist"]);
  });
});

describe("audience rules as SQL (PGlite)", () => {
  const GAME = "audience-sql";
  let database: Awaited<ReturnType<typeof openOffersTestDatabase>>;
  // Plain objects (fast-check's dictionaries have no prototype), as a snapshot arrives in JSON.
  const snapshots = fc.sample(snapshotArb, { numRuns: 60, seed: 42 }).map((s, i) => ({ ...(JSON.parse(JSON.stringify(s)) as AudienceSnapshot), playerId: `p${i}` }));

  beforeAll(async () => {
    database = await openOffersTestDatabase("pglite");
    await new GameDirectory(database.db, new SecretBox(randomBytes(32).toString("hex"))).createGame({ gameId: GAME, name: GAME });
    await database.db.insert(players).values(snapshots.map((s) => ({ gameId: GAME, ...s })));
  });
  afterAll(async () => database?.close());

  it("selects exactly the players the evaluator matches", async () => {
    await fc.assert(
      fc.asyncProperty(ruleArb, async (rule) => {
        const rows = await database.db.select({ playerId: players.playerId }).from(players).where(and(eq(players.gameId, GAME), audienceSql(rule)));
        const expected = snapshots.filter((s) => matchesAudience(rule, s)).map((s) => s.playerId);
        expect(rows.map((r) => r.playerId).sort()).toEqual(expected.sort());
      }),
      fuzzParameters(100),
    );
  });

  it("puts the same players inside a rollout as the engine does", async () => {
    for (const percent of [0, 1, 33.3, 50, 99.9, 100]) {
      const rows = await database.db.select({ playerId: players.playerId }).from(players).where(and(eq(players.gameId, GAME), rolloutSql(percent, GAME, "offer-x")));
      const expected = snapshots.filter((s) => inRollout(percent, GAME, "offer-x", s.playerId)).map((s) => s.playerId);
      expect(rows.map((r) => r.playerId).sort()).toEqual(expected.sort());
    }
  });
});
