import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ScorecardIndex } from "./scorecard-index";
import { checkInWords, DEFAULT_SCORECARD_RULES, evaluateComponent, NO_FACTS, NO_LEVEL, parseScorecardRules, rollup, scoreBits, type ScorecardFacts, type ScorecardRules } from "./scorecards";
import { COMPONENT_KINDS, ENVIRONMENTS, LIFECYCLES, type Component } from "./schema";
import type { CatalogEntry } from "./search";
import { validComponent } from "@/test-support/catalog/temp-catalog";

function component(over: { owners?: number; environments?: Component["spec"]["environments"]; description?: string; kind?: Component["spec"]["kind"]; apis?: number; lifecycle?: Component["spec"]["lifecycle"] } = {}): Component {
  const base = validComponent("c", {
    kind: over.kind ?? "service",
    owners: Array.from({ length: over.owners ?? 1 }, (_, i) => ({ user: `u${i}` })),
    environments: over.environments ?? [],
    ...(over.apis ? { providesApis: Array.from({ length: over.apis }, (_, i) => ({ name: `api-${i}`, type: "openapi" as const, path: "openapi.yaml" })) } : {}),
    ...(over.lifecycle ? { lifecycle: over.lifecycle } : {}),
  });
  return over.description !== undefined ? { ...base, metadata: { ...base.metadata, description: over.description } } : base;
}

describe("scorecard rules file", () => {
  it("ships config/scorecards/rules.yaml equal to the rules in force without a file", () => {
    const text = readFileSync(path.join(process.cwd(), "config/scorecards/rules.yaml"), "utf8");
    expect(parseScorecardRules(text)).toEqual({ ok: true, rules: DEFAULT_SCORECARD_RULES });
  });

  it("refuses a rule of an unknown level, a repeated id and an unknown check, each with its path", () => {
    const text = `levels: [bronze, gold]
rules:
  - { id: a, title: A, level: silver, check: { type: minOwners, count: 2 } }
  - { id: a, title: B, level: gold, check: { type: environment, environment: production } }
  - { id: c, title: C, level: gold, check: { type: nonsense } }
`;
    const parsed = parseScorecardRules(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues).toEqual(
      expect.arrayContaining([
        { path: "rules.2.check.type", message: "type must be one of minOwners, environment, description, providesApis, lifecycle, releasedWithin, reviewsDecidedWithin" },
      ]),
    );
    const again = parseScorecardRules(text.replace("type: nonsense", "type: minOwners, count: 1"));
    expect(again).toEqual({
      ok: false,
      issues: [
        { path: "rules.0.level", message: '"silver" is not one of the levels (bronze, gold)' },
        { path: "rules.1.id", message: 'the rule id "a" is used twice' },
      ],
    });
  });

  it("says what is wrong with a file that is not YAML or not a rules file", () => {
    expect(parseScorecardRules("levels: [unclosed")).toMatchObject({ ok: false, issues: [{ path: "", message: expect.stringMatching(/^not valid YAML/) }] });
    expect(parseScorecardRules("levels: []\nrules: []")).toEqual({ ok: false, issues: [{ path: "levels", message: "list at least one level" }] });
  });
});

describe("evaluating a component", () => {
  it("tells each rule passed or failed and why, and the level reached", () => {
    const card = evaluateComponent(DEFAULT_SCORECARD_RULES, component({ owners: 2, description: "Takes payments", environments: ["staging"] }));
    expect(card.level).toBe("bronze");
    expect(card).toMatchObject({ passed: 2, total: 5 });
    expect(card.results.find((r) => r.id === "production")).toEqual({ id: "production", title: "Runs in production", level: "silver", passed: false, why: "production is not among its environments (staging)" });
    expect(card.results.find((r) => r.id === "api-docs")?.why).toBe("spec.providesApis lists no API");
  });

  it("leaves out a rule that does not apply (API docs of a library)", () => {
    const card = evaluateComponent(DEFAULT_SCORECARD_RULES, component({ kind: "library", owners: 2, description: "x", environments: ["production"], lifecycle: "production" }));
    expect(card).toMatchObject({ level: "gold", passed: 4, total: 4 });
    expect(card.results.find((r) => r.id === "api-docs")).toMatchObject({ passed: null, why: "applies to service only" });
  });

  it("reaches no level when a rule of the lowest level fails, even if higher rules pass", () => {
    const card = evaluateComponent(DEFAULT_SCORECARD_RULES, component({ owners: 1, description: "x", environments: ["production"], lifecycle: "production", apis: 1 }));
    expect(card).toMatchObject({ level: null, passed: 4, total: 5 });
  });
});

describe("rules that read facts (releases, reviews)", () => {
  const day = Date.UTC(2026, 11, 7);
  const facts = (over: Partial<ScorecardFacts> = {}): ScorecardFacts => ({ today: day, lastRelease: new Map(), oldestOpenReview: new Map(), ...over });
  const c = component({ owners: 2, description: "x", environments: ["production"], lifecycle: "production", apis: 1 });
  const result = (f: ScorecardFacts, id: string) => evaluateComponent(DEFAULT_SCORECARD_RULES, c, f).results.find((r) => r.id === id);

  it("do not apply before the facts are read", () => {
    expect(evaluateComponent(DEFAULT_SCORECARD_RULES, c, NO_FACTS)).toMatchObject({ level: "gold", passed: 5, total: 5 });
    expect(result(NO_FACTS, "recent-release")).toMatchObject({ passed: null, why: "release data not read yet" });
  });

  it("a release within 90 days and no review open past 7 days reach gold; an old release or review does not", () => {
    const released = facts({ lastRelease: new Map([["c", day - 90 * 86_400_000 + 5]]) });
    expect(evaluateComponent(DEFAULT_SCORECARD_RULES, c, released)).toMatchObject({ level: "gold", passed: 7, total: 7 });
    expect(result(released, "recent-release")?.why).toBe("last released 2026-09-08 (90 days ago); within 90 wanted");
    const old = facts({ lastRelease: new Map([["c", day - 91 * 86_400_000]]) });
    expect(evaluateComponent(DEFAULT_SCORECARD_RULES, c, old).level).toBe("silver");
    expect(result(facts(), "recent-release")).toMatchObject({ passed: false, why: "no release recorded in the portal" });
    const waiting = facts({ lastRelease: released.lastRelease, oldestOpenReview: new Map([["c", day - 8 * 86_400_000]]) });
    expect(evaluateComponent(DEFAULT_SCORECARD_RULES, c, waiting).level).toBe("bronze");
    expect(result(waiting, "reviews-decided")).toMatchObject({ passed: false, why: "its oldest open review was opened 2026-11-29 (8 days ago); at most 7 wanted" });
    expect(result(facts(), "reviews-decided")).toMatchObject({ passed: true, why: "no open review" });
  });

  it("new facts re-score the records they touch; a new day re-scores every record", () => {
    const index = new ScorecardIndex();
    const entries = ["a", "b", "c"].map((name) => ({ name, file: `${name}.yaml`, component: validComponent(name), etag: name, stale: false }));
    index.sync(entries);
    index.setFacts(facts());
    const before = index.evaluations;
    index.setFacts(facts({ lastRelease: new Map([["b", day]]) }));
    expect(index.evaluations - before).toBe(1);
    index.setFacts(facts({ today: day + 86_400_000, lastRelease: new Map([["b", day]]) }));
    expect(index.evaluations - before).toBe(4);
    for (const e of entries) expect(index.get(e.name)).toEqual(scoreBits(index.rules, e.component, index.facts));
  });
});

const arbComponent = fc
  .record({
    owners: fc.integer({ min: 1, max: 4 }),
    environments: fc.subarray([...ENVIRONMENTS]),
    description: fc.option(fc.string({ minLength: 1, maxLength: 30 }), { nil: undefined }),
    kind: fc.constantFrom(...COMPONENT_KINDS),
    apis: fc.integer({ min: 0, max: 2 }),
    lifecycle: fc.option(fc.constantFrom(...LIFECYCLES), { nil: undefined }),
  })
  .map(component);

const arbRules: fc.Arbitrary<ScorecardRules> = fc.integer({ min: 1, max: 4 }).chain((nLevels) => {
  const levels = ["l0", "l1", "l2", "l3"].slice(0, nLevels);
  const check = fc.oneof(
    fc.integer({ min: 1, max: 4 }).map((count) => ({ type: "minOwners" as const, count })),
    fc.constantFrom(...ENVIRONMENTS).map((environment) => ({ type: "environment" as const, environment })),
    fc.integer({ min: 1, max: 10 }).map((minLength) => ({ type: "description" as const, minLength })),
    fc.subarray([...COMPONENT_KINDS], { minLength: 1 }).map((kinds) => ({ type: "providesApis" as const, kinds })),
    fc.subarray([...LIFECYCLES], { minLength: 1 }).map((list) => ({ type: "lifecycle" as const, in: list })),
  );
  return fc
    .array(fc.record({ level: fc.constantFrom(...levels), check }), { maxLength: 12 })
    .map((rs) => ({ levels, rules: rs.map((r, i) => ({ id: `r${i}`, title: `Rule ${i}`, ...r })) }));
});

describe("scorecard properties", () => {
  it("the level is the highest one whose rules, and every lower level's, all pass; the score counts the rules that apply", () => {
    fc.assert(
      fc.property(arbRules, arbComponent, (rules, c) => {
        const card = evaluateComponent(rules, c);
        const applying = card.results.filter((r) => r.passed !== null);
        expect(card.total).toBe(applying.length);
        expect(card.passed).toBe(applying.filter((r) => r.passed).length);
        // Oracle: walk the levels, lowest first, stopping at the first with a failing rule.
        let expected: string | null = null;
        for (const level of rules.levels) {
          if (applying.some((r) => r.level === level && !r.passed)) break;
          expected = level;
        }
        expect(card.level).toBe(expected);
      }),
    );
  });

  it("a rule file round-trips through YAML the way operators write it", () => {
    fc.assert(
      fc.property(arbRules, (rules) => {
        const text = `levels: ${JSON.stringify(rules.levels)}\nrules: ${JSON.stringify(rules.rules)}\n`;
        expect(parseScorecardRules(text)).toEqual({ ok: true, rules });
      }),
      { numRuns: 50 },
    );
  });

  it("kept incrementally over a sequence of record changes, the scores equal a full evaluation, and only changed records are evaluated", () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("set" as const), name: fc.constantFrom("a", "b", "c", "d", "e"), c: arbComponent }),
      fc.record({ kind: fc.constant("delete" as const), name: fc.constantFrom("a", "b", "c", "d", "e") }),
      fc.record({ kind: fc.constant("sync" as const), keep: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }), c: arbComponent }),
      fc.record({ kind: fc.constant("rules" as const), rules: arbRules }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 20 }), (ops) => {
        const index = new ScorecardIndex();
        let entries = new Map<string, CatalogEntry>();
        const entry = (name: string, c: Component): CatalogEntry => ({ name, file: `components/${name}.yaml`, component: c, etag: name, stale: false });
        for (const o of ops) {
          const before = index.evaluations;
          if (o.kind === "set") {
            entries.set(o.name, entry(o.name, o.c));
            index.set(entries.get(o.name)!);
            expect(index.evaluations - before).toBe(1);
          } else if (o.kind === "delete") {
            entries.delete(o.name);
            index.delete(o.name);
          } else if (o.kind === "sync") {
            // Some records keep their object, the others are replaced by a changed one.
            const next = new Map<string, CatalogEntry>();
            let changed = 0;
            ["a", "b", "c", "d", "e"].forEach((n, i) => {
              const was = entries.get(n);
              if (was && o.keep[i]) next.set(n, was);
              else if (o.keep[i]) {
                next.set(n, entry(n, o.c));
                changed++;
              } else if (was) {
                next.set(n, entry(n, o.c));
                changed++;
              }
            });
            entries = next;
            index.sync([...entries.values()]);
            expect(index.evaluations - before).toBe(changed);
          } else {
            index.setRules(o.rules, entries.values());
          }
        }
        for (const [name, e] of entries) expect(index.get(name)).toEqual(scoreBits(index.rules, e.component));
        expect(index.rollup()).toEqual(rollup(index.rules, [...entries.values()].map((e) => scoreBits(index.rules, e.component))));
        expect(Object.values(index.rollup().levels).reduce((a, b) => a + b, 0)).toBe(entries.size);
      }),
    );
  });

  it("every component counts once in a rollup, under its level or under none", () => {
    fc.assert(
      fc.property(arbRules, fc.array(arbComponent, { maxLength: 20 }), (rules, cs) => {
        const r = rollup(rules, cs.map((c) => scoreBits(rules, c)));
        expect(Object.keys(r.levels)).toEqual([NO_LEVEL, ...rules.levels]);
        expect(Object.values(r.levels).reduce((a, b) => a + b, 0)).toBe(cs.length);
      }),
    );
  });
});

describe("a rule's check in words", () => {
  it("says every check of the default rules as a sentence, without its JSON", () => {
    for (const rule of DEFAULT_SCORECARD_RULES.rules) {
      const words = checkInWords(rule.check);
      expect(words, rule.id).toMatch(/^[A-Z].*\.$/);
      expect(words, rule.id).not.toMatch(/[{}"]|minLength|providesApis|reviewsDecidedWithin/);
    }
  });

  it("says the numbers and lists a rule carries", () => {
    expect(checkInWords({ type: "minOwners", count: 1 })).toBe("The record names at least 1 owner.");
    expect(checkInWords({ type: "lifecycle", in: ["experimental", "production", "deprecated"] })).toBe("The record's lifecycle is experimental, production or deprecated.");
    expect(checkInWords({ type: "reviewsDecidedWithin", days: 7 })).toBe("No merge request on the component has been open longer than 7 days.");
  });
});
