/**
 * The catalog's index as a function of what it was and what the files hold now: pure (no git, no
 * clock), so the rules of a refresh are tested without a repository. catalog.ts reads the files of a
 * commit (committed-records.ts, cached by blob) and hands their reads here.
 *
 * The rules:
 * - A valid record is on show under its name. A name keeps the file that held it before: when two
 *   files claim one name, the newly added one is reported (duplicate) and ignored until one is renamed.
 * - A file that no longer loads keeps its record's last valid version on show, marked stale with the
 *   first error, as long as the same file held that name before and no valid file took the name over.
 * - An entry that did not change keeps its object, so the search index keeps what it built for it.
 */
import type { FileRead } from "./committed-records";
import type { CatalogError } from "./parse";
import type { Component } from "./schema";
import type { CatalogEntry } from "./search";

/** What the records on show did between two states. */
export interface IndexChanges {
  /** Records present before and after whose file (or staleness) changed. */
  changed: number;
  added: number;
  removed: number;
}

export interface Reconciled {
  entries: Map<string, CatalogEntry>;
  errors: Map<string, CatalogError[]>;
  changes: IndexChanges;
  /** Entries on show in their last valid version. */
  stale: number;
}

/** Why a file's record is stale, from its load errors. */
export function staleReasonOf(errors: readonly CatalogError[]): string {
  const first = errors[0];
  return first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "the file no longer loads";
}

/**
 * The next index (records by name, load errors by file) from the previous records and the reads of
 * every records file of a commit, in file order (the listing's), with the errors about the records
 * folder itself. The previous load errors play no part: they are all found again.
 */
export function reconcile(before: ReadonlyMap<string, CatalogEntry>, reads: readonly FileRead[], folderErrors: readonly CatalogError[]): Reconciled {
  const previousNameOfFile = new Map([...before.values()].map((e) => [e.file, e.name]));
  const fresh = new Map<string, CatalogEntry>();
  const errors = new Map<string, CatalogError[]>();
  const addError = (err: CatalogError) => {
    const list = errors.get(err.file) ?? [];
    list.push(err);
    errors.set(err.file, list);
  };
  for (const err of folderErrors) addError(err);
  type Valid = FileRead & { result: { ok: true; component: Component } };
  // A name keeps the file that held it before: a newly added duplicate is the one reported. The reads
  // are in file order (the listing is sorted), so holders first, then the rest, both in file order.
  const holders: Valid[] = [];
  const others: Valid[] = [];
  for (const r of reads) {
    if (!r.result.ok) continue;
    (previousNameOfFile.get(r.file) === r.result.component.metadata.name ? holders : others).push(r as Valid);
  }
  for (const r of [...holders, ...others]) {
    const name = r.result.component.metadata.name;
    const holder = fresh.get(name);
    if (holder) {
      addError({ file: r.file, path: "metadata.name", message: `duplicate name "${name}": ${holder.file} already defines it; this file is ignored until one of the two is renamed` });
      continue;
    }
    const was = before.get(name);
    // The same record as before keeps its entry object, so the index keeps what it built for it.
    const same = was && !was.stale && was.file === r.file && was.etag === r.etag && was.component === r.result.component;
    fresh.set(name, same ? was : { name, file: r.file, component: r.result.component, etag: r.etag, stale: false });
  }
  for (const r of reads) {
    if (r.result.ok) continue;
    for (const err of r.result.errors) addError(err);
    const name = previousNameOfFile.get(r.file) ?? r.result.name;
    const was = name ? before.get(name) : undefined;
    if (name && was && was.file === r.file && !fresh.has(name)) {
      fresh.set(name, { ...was, etag: r.etag, stale: true, staleReason: staleReasonOf(r.result.errors) });
    }
  }
  let stale = 0;
  for (const e of fresh.values()) if (e.stale) stale++;
  const changes: IndexChanges = { changed: 0, added: 0, removed: 0 };
  for (const [name, now] of fresh) {
    const was = before.get(name);
    if (!was) changes.added++;
    else if (was.etag !== now.etag || was.stale !== now.stale || was.file !== now.file) changes.changed++;
  }
  for (const name of before.keys()) if (!fresh.has(name)) changes.removed++;
  return { entries: fresh, errors, changes, stale };
}

/**
 * One record's file read again (its name unchanged): the entry on show after it, and the file's load
 * errors (null when it loads). A file that broke keeps the record's last valid version, stale.
 */
export function reconcileOne(entry: CatalogEntry, read: FileRead): { entry: CatalogEntry; errors: CatalogError[] | null } {
  if (read.result.ok) return { entry: { name: entry.name, file: entry.file, component: read.result.component, etag: read.etag, stale: false }, errors: null };
  return { entry: { ...entry, etag: read.etag, stale: true, staleReason: staleReasonOf(read.result.errors) }, errors: read.result.errors };
}
