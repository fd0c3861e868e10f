/**
 * Every record's score under the rules in force, kept beside the catalog's index and changed with it
 * (catalog-index.ts): a record whose entry object did not change keeps its score, so a commit that
 * changes a few records re-evaluates those only; new rules re-evaluate every record once.
 */
import { DEFAULT_SCORECARD_RULES, NO_FACTS, readsFacts, rollup, scoreBits, type LevelRollup, type ScorecardFacts, type ScorecardRules, type ScoreBits } from "./scorecards";
import type { CatalogEntry } from "./search";

interface Scored {
  entry: CatalogEntry;
  bits: ScoreBits;
}

export class ScorecardIndex {
  private current: ScorecardRules = DEFAULT_SCORECARD_RULES;
  private currentFacts: ScorecardFacts = NO_FACTS;
  private scores = new Map<string, Scored>();
  /** Records evaluated since this index was made (tests and the benchmark read it). */
  evaluations = 0;

  get rules(): ScorecardRules {
    return this.current;
  }

  get facts(): ScorecardFacts {
    return this.currentFacts;
  }

  private score(entry: CatalogEntry): Scored {
    this.evaluations++;
    return { entry, bits: scoreBits(this.current, entry.component, this.currentFacts) };
  }

  /** Puts new rules in force: every record is evaluated again under them. */
  setRules(rules: ScorecardRules, entries: Iterable<CatalogEntry>): void {
    this.current = rules;
    this.scores = new Map();
    for (const e of entries) this.scores.set(e.name, this.score(e));
  }

  /**
   * New facts (releases, reviews, the day): the records whose facts changed are scored again; all of them
   * when the day changed or the facts are read for the first time (every fact rule is judged again). Nothing
   * when the rules read no facts. Answers whether any level may have moved.
   */
  setFacts(facts: ScorecardFacts): boolean {
    const before = this.currentFacts;
    this.currentFacts = facts;
    if (!readsFacts(this.current)) return false;
    let names: Iterable<string>;
    if (before.today !== facts.today) names = this.scores.keys();
    else {
      const changed = new Set<string>();
      for (const [a, b] of [
        [before.lastRelease, facts.lastRelease],
        [before.oldestOpenReview, facts.oldestOpenReview],
      ] as const) {
        for (const [n, v] of a) if (b.get(n) !== v) changed.add(n);
        for (const [n, v] of b) if (a.get(n) !== v) changed.add(n);
      }
      names = changed;
    }
    let any = false;
    for (const n of [...names]) {
      const s = this.scores.get(n);
      if (!s) continue;
      this.scores.set(n, this.score(s.entry));
      any = true;
    }
    return any;
  }

  /** The records now on show: those whose entry changed (or that are new) are evaluated, the rest keep their score. */
  sync(entries: readonly CatalogEntry[]): void {
    const before = this.scores;
    const next = new Map<string, Scored>();
    for (const e of entries) {
      const kept = before.get(e.name);
      next.set(e.name, kept && kept.entry.component === e.component ? (kept.entry === e ? kept : { entry: e, bits: kept.bits }) : this.score(e));
    }
    this.scores = next;
  }

  set(entry: CatalogEntry): void {
    const kept = this.scores.get(entry.name);
    this.scores.set(entry.name, kept && kept.entry.component === entry.component ? { entry, bits: kept.bits } : this.score(entry));
  }

  delete(name: string): void {
    this.scores.delete(name);
  }

  get(name: string): ScoreBits | undefined {
    return this.scores.get(name)?.bits;
  }

  /** Index of the level reached in rules.levels; -1 below the lowest level or for an unknown name. */
  levelIndexOf(name: string): number {
    return this.scores.get(name)?.bits.level ?? -1;
  }

  /** The level of every record, by name. */
  levels(): Map<string, number> {
    return new Map([...this.scores].map(([name, s]) => [name, s.bits.level]));
  }

  /** Components per level and the mean score, over every record or over those `names` picks. */
  rollup(names?: Iterable<string>): LevelRollup {
    if (!names) return rollup(this.current, [...this.scores.values()].map((s) => s.bits));
    const picked: ScoreBits[] = [];
    for (const n of names) {
      const s = this.scores.get(n);
      if (s) picked.push(s.bits);
    }
    return rollup(this.current, picked);
  }
}
