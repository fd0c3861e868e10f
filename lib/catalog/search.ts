/**
 * In-memory index of the catalog: each record with a prebuilt lowercase haystack, so a list query is
 * one pass over the records that can match: those holding the rarest trigram of the search's words (a
 * trigram index), or those holding a wanted value of the one dimension filtered on, or all; none for
 * the unfiltered list. What every query of one state of the index shares is built once (see Prepared):
 * counts over all records, the trigram index, the records as columns the pass reads (search-columns.ts),
 * the order of all records by a sort field. Facet counts
 * are "disjunctive": the count of a kind is over records matching every other filter, so chips show
 * what choosing them would give.
 */
import type { Component } from "./schema";
import type { FacetCounts, ListCounts, ListQuery } from "./query";
import { rankOfLevel } from "./scorecards";
import { buildColumns, countInto, countsOf, DIMS, filterOf, passes, type Columns, type Dim } from "./search-columns";

export interface CatalogEntry {
  name: string;
  /** Relative to the config repository root. */
  file: string;
  /** The record on show: the current file, or its last valid version when stale. */
  component: Component;
  /** ETag of the file's current bytes (what an update must match). */
  etag: string;
  /** True when the file broke after this version loaded; staleReason says why. */
  stale: boolean;
  staleReason?: string;
}

export interface ListItem {
  name: string;
  file: string;
  stale: boolean;
  favorite: boolean;
  component: Component;
}

export interface ListResult {
  items: ListItem[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
  counts: ListCounts;
}

/**
 * A record as the index searches it. The facet values are short arrays, not sets: a record has a
 * handful of each, and 100,000 records with four sets each cost tens of megabytes and a slower start.
 */
interface Indexed {
  entry: CatalogEntry;
  /** Its position in name order in the current state of the index (set when that order is made). */
  at: number;
  haystack: string;
  owners: readonly string[];
  groups: readonly string[];
  environments: readonly string[];
  deps: readonly string[];
}

const NO_ENVIRONMENT: readonly string[] = ["none"];
const NONE: readonly string[] = [];
/** The few combinations of dependency flags, shared by every record that has one. */
const depsCombos = new Map<string, readonly string[]>();

/** `value` added to a short list of distinct values (a record has a handful: no set needed). */
function addDistinct(list: string[] | null, value: string): string[] {
  if (!list) return [value];
  if (!list.includes(value)) list.push(value);
  return list;
}

/** Built for every record on each load or restart: plain loops, no intermediate arrays. */
function index(entry: CatalogEntry): Indexed {
  const c = entry.component;
  let owners: string[] | null = null;
  let groups: string[] | null = null;
  let haystack = `${c.metadata.name}\u0000${c.metadata.displayName}\u0000${c.metadata.description ?? ""}`;
  for (const tag of c.metadata.tags ?? []) haystack += `\u0000${tag}`;
  haystack += `\u0000${c.spec.repo.path}`;
  for (const o of c.spec.owners) {
    haystack += `\u0000${o.user}\u0000${o.group ?? ""}`;
    owners = addDistinct(owners, o.user.toLowerCase());
    if (o.group) groups = addDistinct(groups, o.group.toLowerCase());
  }
  // The flags set, in the record's order, as one list shared by every record with the same ones.
  let key = "";
  const dependencies = c.spec.dependencies ?? {};
  for (const flag in dependencies) if (dependencies[flag as keyof typeof dependencies]) key = key ? `${key},${flag}` : flag;
  let deps = depsCombos.get(key);
  if (!deps) depsCombos.set(key, (deps = key ? key.split(",") : NONE));
  // The record's own list (the schema refuses repeats), or one shared ["none"].
  const environments = c.spec.environments.length ? c.spec.environments : NO_ENVIRONMENT;
  return { entry, at: -1, haystack: haystack.toLowerCase(), owners: owners ?? NONE, groups: groups ?? NONE, environments, deps };
}

function sortKey(entry: CatalogEntry, sort: ListQuery["sort"], levelRank: (entry: CatalogEntry) => number): string {
  const c = entry.component;
  switch (sort) {
    case "level":
      // Ranks are small (none = 0, the lowest level = 1, …): two digits order them as text.
      return String(levelRank(entry)).padStart(2, "0");
    case "displayName":
      return c.metadata.displayName.toLowerCase();
    case "kind":
      return c.spec.kind;
    case "repo":
      return c.spec.repo.path.toLowerCase();
    default:
      return c.metadata.name;
  }
}


interface Computed {
  matched: Indexed[];
  facets: FacetCounts;
  staleCount: number;
}

function count(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Recent query results (without paging), so paging through one result or repeating a popular search is a lookup. */
const CACHE_SIZE = 64;

/**
 * What every query of one state of the index shares, built on the first query after a change that
 * needs it: the stale count; each dimension's counts over all records; the trigram index.
 */
interface Prepared {
  staleCount: number;
  allCounts: Partial<Record<Dim, Map<string, number>>>;
  /** Each value of a dimension → the positions (name order) of the records holding it. */
  postings: Partial<Record<Dim, Map<string, number[]>>>;
  /** Built by the first query with a word of three characters or more. */
  trigrams: TrigramIndex | null;
  /** Built by the first query that is not the unfiltered list. */
  columns: Columns | null;
  /**
   * Every record's position in name order, listed in another order (a sort field and direction), built
   * by the first query that sorts many records that way: a sorted answer is then a pass that keeps the
   * matched ones, not a sort of them.
   */
  orders: Map<string, Int32Array>;
}

/**
 * A sort of fewer matched records than the whole divided by this sorts them rather than building the order of all.
 * A comparison of two keys costs about as much as 50 steps of the pass over every position, so sorting 2,000 of
 * 100,000 records (3 ms) cost ten times the pass (0.3 ms) over an order built once per state of the index.
 */
const SORT_ALL_SHARE = 64;

/**
 * Characters of a trigram, folded to 6 bits: a-z, 0-9, "-", "/", "." and "_" keep their own code, every
 * other character shares one. Folding only merges trigrams, so a list holds every record that has the
 * trigram (and perhaps some that do not): a superset, as the caller checks each candidate's haystack.
 */
const GRAM_CODE = (() => {
  const codes = new Uint8Array(128).fill(63);
  const own = "abcdefghijklmnopqrstuvwxyz0123456789-/._";
  for (let i = 0; i < own.length; i++) codes[own.charCodeAt(i)] = i;
  return codes;
})();
const GRAMS = 64 * 64 * 64;
const gramCharCode = (text: string, at: number) => {
  const c = text.charCodeAt(at);
  return c < 128 ? GRAM_CODE[c] : 63;
};

/**
 * Each trigram → the positions (name order) of the records whose haystack holds it, as one array
 * sliced by offsets (compressed sparse rows): two passes over the haystacks, no per-trigram objects.
 */
interface TrigramIndex {
  /** The list of trigram g is positions[offsets[g] .. offsets[g + 1]]. */
  offsets: Int32Array;
  positions: Int32Array;
}

function buildTrigrams(all: readonly Indexed[]): TrigramIndex {
  const offsets = new Int32Array(GRAMS + 1);
  // The last record seen holding each trigram: a record is listed once however often it holds one.
  const last = new Int32Array(GRAMS).fill(-1);
  // Two passes over the same trigrams: the first counts each list's length, the second fills the lists.
  let positions: Int32Array | null = null;
  let next: Int32Array | null = null;
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < all.length; i++) {
      const h = all[i].haystack;
      if (h.length < 3) continue;
      let gram = (gramCharCode(h, 0) << 6) | gramCharCode(h, 1);
      for (let k = 2; k < h.length; k++) {
        gram = ((gram << 6) | gramCharCode(h, k)) & (GRAMS - 1);
        if (last[gram] === i) continue;
        last[gram] = i;
        if (next) positions![next[gram]++] = i;
        else offsets[gram + 1]++;
      }
    }
    if (next) break;
    for (let g = 0; g < GRAMS; g++) offsets[g + 1] += offsets[g];
    positions = new Int32Array(offsets[GRAMS]);
    next = offsets.slice(0, GRAMS);
    last.fill(-1);
  }
  return { offsets, positions: positions! };
}

function valuesOf(x: Indexed, dim: Dim): readonly string[] {
  switch (dim) {
    case "kind":
      return [x.entry.component.spec.kind];
    case "environment":
      return x.environments;
    case "group":
      return x.groups;
    case "owner":
      return x.owners;
    case "dependency":
      return x.deps;
  }
}

function countDim(counts: Map<string, number>, x: Indexed, dim: Dim): void {
  // A record's kind is one value: counted without the array valuesOf() would build for it.
  if (dim === "kind") count(counts, x.entry.component.spec.kind);
  else for (const value of valuesOf(x, dim)) count(counts, value);
}

export class SearchIndex {
  private byName = new Map<string, Indexed>();
  private sorted: Indexed[] | null = null;
  private prep: Prepared | null = null;
  private cache = new Map<string, Computed>();

  /** Forgets cached query results (benchmarks measure uncached queries with it). */
  clearCache(): void {
    this.cache.clear();
  }

  /** Scorecard levels (catalog-index.ts): a record's rank (0 below the lowest level, 1 the lowest, …) and the names, lowest first. */
  protected levels: { rankOf(entry: CatalogEntry): number; names(): readonly string[] } = { rankOf: () => 0, names: () => [] };

  /** Something a query depends on other than the records changed (the scorecard rules): forget what was built. */
  protected changed(): void {
    this.sorted = null;
    this.prep = null;
    this.cache.clear();
  }

  private prepared(): Prepared {
    if (this.prep) return this.prep;
    const all = this.ordered();
    let staleCount = 0;
    for (const x of all) if (x.entry.stale) staleCount++;
    return (this.prep = { staleCount, allCounts: {}, postings: {}, trigrams: null, columns: null, orders: new Map() });
  }

  private columns(): Columns {
    const prep = this.prepared();
    return (prep.columns ??= buildColumns(this.ordered(), { haystack: (x) => x.haystack, stale: (x) => x.entry.stale, values: valuesOf }));
  }

  /** One dimension's counts over every record, in name order (as a pass over all of them would count). */
  private allCounts(dim: Dim): Map<string, number> {
    const prep = this.prepared();
    let counts = prep.allCounts[dim];
    if (!counts) {
      counts = new Map();
      for (const x of this.ordered()) countDim(counts, x, dim);
      prep.allCounts[dim] = counts;
    }
    return counts;
  }

  /**
   * The records that can pass a query filtering on `dim` alone, in name order: those holding one of the
   * wanted values (dependencies, all of which are wanted: those holding the first).
   */
  private holdingAny(dim: Dim, wanted: Iterable<string>): number[] {
    const prep = this.prepared();
    const all = this.ordered();
    let lists = prep.postings[dim];
    if (!lists) {
      lists = new Map();
      for (let i = 0; i < all.length; i++) {
        for (const v of valuesOf(all[i], dim)) {
          let list = lists.get(v);
          if (!list) lists.set(v, (list = []));
          list.push(i);
        }
      }
      prep.postings[dim] = lists;
    }
    let positions: number[] = [];
    let merged = 0;
    for (const v of wanted) {
      const list = lists.get(v);
      if (list) {
        merged++;
        for (const i of list) positions.push(i);
      }
      if (dim === "dependency") break;
    }
    if (merged > 1) {
      positions.sort((a, b) => a - b);
      positions = positions.filter((p, k) => k === 0 || p !== positions[k - 1]);
    }
    return positions;
  }

  /**
   * The records that may hold every word, in name order: those holding the rarest trigram of any word (a
   * superset of the query's matches: every word is checked after); null when no word is long enough to
   * have a trigram (every record may).
   */
  private holding(words: readonly string[]): Int32Array | null {
    if (!words.some((w) => w.length >= 3)) return null;
    const prep = this.prepared();
    const all = this.ordered();
    const { offsets, positions } = (prep.trigrams ??= buildTrigrams(all));
    let from = 0;
    let to = -1;
    for (const word of words) {
      if (word.length < 3) continue;
      let gram = (gramCharCode(word, 0) << 6) | gramCharCode(word, 1);
      for (let k = 2; k < word.length; k++) {
        gram = ((gram << 6) | gramCharCode(word, k)) & (GRAMS - 1);
        const start = offsets[gram];
        const end = offsets[gram + 1];
        if (end === start) return new Int32Array(0);
        if (to < 0 || end - start < to - from) {
          from = start;
          to = end;
        }
      }
    }
    return positions.subarray(from, to);
  }

  replaceAll(entries: Iterable<CatalogEntry>): void {
    const before = this.byName;
    this.byName = new Map();
    for (const e of entries) {
      // An unchanged entry (the same object) keeps what was built for it: a refresh after a small change stays cheap.
      const kept = before.get(e.name);
      this.byName.set(e.name, kept?.entry === e ? kept : index(e));
    }
    this.changed();
  }

  upsert(entry: CatalogEntry): void {
    this.byName.set(entry.name, index(entry));
    this.changed();
  }

  remove(name: string): void {
    this.byName.delete(name);
    this.changed();
  }

  get size(): number {
    return this.byName.size;
  }

  get(name: string): CatalogEntry | undefined {
    return this.byName.get(name)?.entry;
  }

  /** Entries in name order. */
  entries(): CatalogEntry[] {
    return this.ordered().map((i) => i.entry);
  }

  private ordered(): Indexed[] {
    if (!this.sorted) {
      this.sorted = [...this.byName.values()].sort((a, b) => (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0));
      for (let i = 0; i < this.sorted.length; i++) this.sorted[i].at = i;
    }
    return this.sorted;
  }

  /** `records` in the query's order: by the sort field in its direction, equal keys by name. */
  private sortedAs(records: Indexed[], sort: ListQuery["sort"], order: ListQuery["order"]): Indexed[] {
    const dir = order === "desc" ? -1 : 1;
    // Positions are name order, so equal keys fall back to the lower position: the name.
    const compare = (ka: string, kb: string, pa: number, pb: number) => (ka < kb ? -dir : ka > kb ? dir : pa - pb);
    const all = this.ordered();
    const prep = this.prepared();
    const name = `${sort}:${order}`;
    const rank = (e: CatalogEntry) => this.levels.rankOf(e);
    let positions = prep.orders.get(name);
    if (!positions && records.length * SORT_ALL_SHARE < all.length) {
      const keyed = records.map((x) => ({ x, k: sortKey(x.entry, sort, rank) }));
      keyed.sort((a, b) => compare(a.k, b.k, a.x.at, b.x.at));
      return keyed.map(({ x }) => x);
    }
    if (!positions) {
      const keys = all.map((x) => sortKey(x.entry, sort, rank));
      positions = Int32Array.from(all, (_, i) => i).sort((a, b) => compare(keys[a], keys[b], a, b));
      prep.orders.set(name, positions);
    }
    const wanted = new Uint8Array(all.length);
    for (const x of records) wanted[x.at] = 1;
    const out: Indexed[] = [];
    for (const i of positions) if (wanted[i]) out.push(all[i]);
    return out;
  }

  list(query: ListQuery, favorites: ReadonlySet<string> = new Set(), errorCount = 0): ListResult {
    // Results depend on favorites only when filtering by them; those are computed fresh.
    const { page: _page, pageSize: _pageSize, ...rest } = query;
    const key = query.favorites ? null : JSON.stringify(rest);
    let computed = key ? this.cache.get(key) : undefined;
    if (!computed) {
      computed = this.compute(query, favorites);
      if (key) {
        if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
        this.cache.set(key, computed);
      }
    }
    const { matched, facets, staleCount } = computed;
    const total = matched.length;
    const pages = Math.max(1, Math.ceil(total / query.pageSize));
    const start = (query.page - 1) * query.pageSize;
    const items = matched.slice(start, start + query.pageSize).map(({ entry }) => ({
      name: entry.name,
      file: entry.file,
      stale: entry.stale,
      favorite: favorites.has(entry.name),
      component: entry.component,
    }));
    let favoriteCount = 0;
    for (const f of favorites) if (this.byName.has(f)) favoriteCount++;
    return {
      items,
      total,
      page: query.page,
      pageSize: query.pageSize,
      pages,
      counts: { ...facets, all: this.byName.size, matching: total, errors: errorCount, stale: staleCount, favorites: favoriteCount },
    };
  }

  private compute(query: ListQuery, favorites: ReadonlySet<string>): Computed {
    const words = query.q.toLowerCase().split(/\s+/).filter(Boolean);
    const kinds = new Set<string>(query.kind);
    const owners = new Set(query.owner.map((o) => o.toLowerCase()));
    const groups = new Set(query.group.map((g) => g.toLowerCase()));
    const envs = new Set<string>(query.environment);
    const deps = query.dependency;
    const levels = new Set(query.level.map((l) => rankOfLevel(l, this.levels.names())));
    // Only the dimensions the query filters on can fail; the others are not even looked at.
    const wanted: Record<Dim, Iterable<string>> = { kind: kinds, owner: owners, group: groups, environment: envs, dependency: deps };
    const active = DIMS.filter((d) => (d === "dependency" ? deps.length > 0 : (wanted[d] as Set<string>).size > 0));

    // Nothing narrows the records but the dimensions' filters.
    const unnarrowed = !words.length && !query.favorites && !query.stale && !levels.size;
    // No filter either (the catalog's first page): every record, with every dimension's counts over all of them.
    const everything = unnarrowed && active.length === 0;
    const { staleCount } = this.prepared();
    // Filtering on one dimension only, its counts are over every record (a record failing it counts there,
    // so does one passing it): the counts of all records, computed once per state of the index; and the
    // pass is over the records holding a wanted value only.
    const whole = unnarrowed && active.length === 1 ? active[0] : null;
    const of = (dim: Dim, counts: Int32Array | null) =>
      everything || whole === dim || !counts ? Object.fromEntries(this.allCounts(dim)) : countsOf(this.columns().dims[dim], counts);
    if (everything) {
      const facets: FacetCounts = { kind: of("kind", null), environment: of("environment", null), group: of("group", null), owner: of("owner", null), dependency: of("dependency", null) };
      const all = this.ordered().slice();
      return { matched: query.sort !== "name" || query.order === "desc" ? this.sortedAs(all, query.sort, query.order) : all, facets, staleCount };
    }

    const all = this.ordered();
    const { haystacks, stale, dims } = this.columns();
    const filters = active.map((d) => filterOf(dims[d], d, wanted[d]));
    // Each dimension's counts by value id; a record failing one filter counts in that dimension only.
    const counts = {} as Record<Dim, Int32Array>;
    for (const d of DIMS) counts[d] = new Int32Array(dims[d].values.length);
    const matched: Indexed[] = [];
    const candidates: ArrayLike<number> | null = words.length ? this.holding(words) : whole ? this.holdingAny(whole, wanted[whole]) : null;
    const n = candidates ? candidates.length : all.length;
    records: for (let k = 0; k < n; k++) {
      const i = candidates ? candidates[k] : k;
      if (query.stale && !stale[i]) continue;
      if (query.favorites && !favorites.has(all[i].entry.name)) continue;
      if (levels.size && !levels.has(this.levels.rankOf(all[i].entry))) continue;
      const haystack = haystacks[i];
      for (const w of words) if (!haystack.includes(w)) continue records;
      // Which dimensions does this record fail? Facet counts of a dimension ignore its own filter.
      let failed = -1;
      for (let f = 0; f < filters.length; f++) {
        if (!passes(filters[f], i)) {
          if (failed >= 0) continue records;
          failed = f;
        }
      }
      if (failed >= 0) {
        if (!whole) countInto(counts[active[failed]], dims[active[failed]], i);
        continue;
      }
      for (const d of DIMS) if (d !== whole) countInto(counts[d], dims[d], i);
      matched.push(all[i]);
    }
    const facets: FacetCounts = {
      kind: of("kind", counts.kind),
      environment: of("environment", counts.environment),
      group: of("group", counts.group),
      owner: of("owner", counts.owner),
      dependency: of("dependency", counts.dependency),
    };

    const inOrder = query.sort !== "name" || query.order === "desc" ? this.sortedAs(matched, query.sort, query.order) : matched;
    return { matched: inOrder, facets, staleCount };
  }
}
