/**
 * The search index's records as columns (catalog/search.ts): what a query's pass reads of each record,
 * by position in name order, in a few flat arrays, and the pass's filter and count steps over them.
 */

/** The dimensions a list is filtered and counted on. */
export type Dim = "kind" | "environment" | "group" | "owner" | "dependency";

/**
 * One dimension's values as numbers: each value an id (in order of first appearance, name order), each
 * record's ids as one array sliced by offsets (the ids of the record at position i are
 * ids[start[i] .. start[i + 1]]).
 */
export interface Column {
  values: string[];
  idOf: Map<string, number>;
  start: Int32Array;
  ids: Int32Array;
}

/**
 * What a query's pass reads of each record, by position in name order: its haystack, whether it is
 * stale, and each dimension's value ids. A pass over tens of thousands of matches then reads a few
 * arrays instead of following each record's objects (records, components, their lists) scattered
 * over the heap: those reads, not the work, were most of a query's time at 100,000 records.
 */
export interface Columns {
  haystacks: string[];
  stale: Uint8Array;
  dims: Record<Dim, Column>;
}

export const DIMS: readonly Dim[] = ["kind", "environment", "group", "owner", "dependency"];

function buildColumn(records: number, valuesAt: (i: number) => readonly string[]): Column {
  const idOf = new Map<string, number>();
  const values: string[] = [];
  const start = new Int32Array(records + 1);
  let ids = new Int32Array(records * 2 + 16);
  let n = 0;
  for (let i = 0; i < records; i++) {
    for (const value of valuesAt(i)) {
      let id = idOf.get(value);
      if (id === undefined) {
        id = values.length;
        idOf.set(value, id);
        values.push(value);
      }
      if (n === ids.length) {
        const grown = new Int32Array(ids.length * 2);
        grown.set(ids);
        ids = grown;
      }
      ids[n++] = id;
    }
    start[i + 1] = n;
  }
  return { values, idOf, start, ids: ids.slice(0, n) };
}

/** The columns of records 0 … n-1 (positions in name order), from what each holds. */
export function buildColumns<R>(records: readonly R[], of: { haystack(r: R): string; stale(r: R): boolean; values(r: R, dim: Dim): readonly string[] }): Columns {
  const stale = new Uint8Array(records.length);
  for (let i = 0; i < records.length; i++) if (of.stale(records[i])) stale[i] = 1;
  const dims = {} as Record<Dim, Column>;
  for (const dim of DIMS) dims[dim] = buildColumn(records.length, (i) => of.values(records[i], dim));
  return { haystacks: records.map((r) => of.haystack(r)), stale, dims };
}

/**
 * A query's filter on one dimension, as ids: `any` flags the wanted ids (a record passes holding one);
 * for dependencies `all` lists the wanted ids (a record passes holding all of them; -1, a value no
 * record holds, fails every record).
 */
export interface DimFilter {
  column: Column;
  any: Uint8Array | null;
  all: number[] | null;
}

export function filterOf(column: Column, dim: Dim, wanted: Iterable<string>): DimFilter {
  if (dim === "dependency") return { column, any: null, all: [...wanted].map((v) => column.idOf.get(v) ?? -1) };
  const any = new Uint8Array(column.values.length);
  for (const v of wanted) {
    const id = column.idOf.get(v);
    if (id !== undefined) any[id] = 1;
  }
  return { column, any, all: null };
}

export function passes(f: DimFilter, i: number): boolean {
  const { start, ids } = f.column;
  const from = start[i];
  const to = start[i + 1];
  if (f.any) {
    for (let k = from; k < to; k++) if (f.any[ids[k]]) return true;
    return false;
  }
  for (const wanted of f.all!) {
    let held = false;
    for (let k = from; k < to; k++) if (ids[k] === wanted) held = true;
    if (!held) return false;
  }
  return true;
}

export function countInto(counts: Int32Array, column: Column, i: number): void {
  const { start, ids } = column;
  for (let k = start[i], to = start[i + 1]; k < to; k++) counts[ids[k]]++;
}

/** Counts by id → counts by value, the values counted at least once. */
export function countsOf(column: Column, counts: Int32Array): Record<string, number> {
  const entries: Array<[string, number]> = [];
  for (let id = 0; id < counts.length; id++) if (counts[id] > 0) entries.push([column.values[id], counts[id]]);
  return Object.fromEntries(entries);
}

