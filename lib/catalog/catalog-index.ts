/**
 * The catalog's in-memory index: the search (search.ts), the relations (relations.ts) and the
 * scorecards (scorecard-index.ts) of the same records, changed together. Every change of the catalog's
 * records goes through these three methods, so the relations and the scores follow each one with only
 * the changed records' edges and scores moving.
 */
import { RelationIndex } from "./relations";
import { ScorecardIndex } from "./scorecard-index";
import type { ScorecardFacts, ScorecardRules } from "./scorecards";
import { SearchIndex, type CatalogEntry } from "./search";

export class CatalogIndex extends SearchIndex {
  readonly relations = new RelationIndex();
  readonly scorecards = new ScorecardIndex();
  /** New facts for the time-based rules: the records they touch are scored again (list answers dropped if any moved). */
  setScorecardFacts(facts: ScorecardFacts): void {
    if (this.scorecards.setFacts(facts)) this.changed();
  }

  protected override levels = { rankOf: (entry: CatalogEntry) => this.scorecards.levelIndexOf(entry.name) + 1, names: () => this.scorecards.rules.levels };

  override replaceAll(entries: Iterable<CatalogEntry>): void {
    const all: readonly CatalogEntry[] = Array.isArray(entries) ? entries : [...entries];
    super.replaceAll(all);
    this.relations.sync(all);
    this.scorecards.sync(all);
  }

  override upsert(entry: CatalogEntry): void {
    super.upsert(entry);
    this.relations.set(entry);
    this.scorecards.set(entry);
  }

  override remove(name: string): void {
    super.remove(name);
    this.relations.delete(name);
    this.scorecards.delete(name);
  }

  /** Puts new scorecard rules in force: every record is scored again, and list answers built on the old levels are dropped. */
  setScorecardRules(rules: ScorecardRules): void {
    this.scorecards.setRules(rules, this.entries());
    this.changed();
  }
}
