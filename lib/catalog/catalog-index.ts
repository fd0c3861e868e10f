/**
 * The catalog's in-memory index: the search (search.ts) and the relations (relations.ts) of the same
 * records, changed together. Every change of the catalog's records goes through these three methods, so
 * the relations follow each one with only the changed records' edges moving.
 */
import { RelationIndex } from "./relations";
import { SearchIndex, type CatalogEntry } from "./search";

export class CatalogIndex extends SearchIndex {
  readonly relations = new RelationIndex();

  override replaceAll(entries: Iterable<CatalogEntry>): void {
    const all: readonly CatalogEntry[] = Array.isArray(entries) ? entries : [...entries];
    super.replaceAll(all);
    this.relations.sync(all);
  }

  override upsert(entry: CatalogEntry): void {
    super.upsert(entry);
    this.relations.set(entry);
  }

  override remove(name: string): void {
    super.remove(name);
    this.relations.delete(name);
  }
}
