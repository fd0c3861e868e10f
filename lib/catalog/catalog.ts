/**
 * The catalog: records loaded from the config repository, the errors of those that failed, an index
 * for list queries, and write-back (validated, comment-preserving, one git commit per change, authored
 * by the signed-in user, optimistic concurrency by ETag). Writes and refreshes are serialised per
 * repository by the store's lock, so concurrent updates either succeed or are refused precondition-failed, and none is lost.
 *
 * Only committed content is served: records are read from the branch's commit (ls-tree + one
 * cat-file --batch), never from the working tree, so a file edited, staged or half-written there is
 * never shown (committed-records.ts). A symbolic link is a load error, never followed. Writes go through the store, the
 * repository's one writer (store.ts).
 */
import path from "node:path";
import { DEFAULT_MAX_FILE_BYTES, etagOf, parseComponentText, type CatalogError, type ParseResult } from "./parse";
import type { ConfigRepo } from "./repo";
import { ConfigRepoStore, type RecoveryReport } from "./store";
import { CommittedRecords, type FileRead } from "./committed-records";
import type { WorkingCopy } from "../scm/local";
import { SearchIndex, type CatalogEntry, type ListResult } from "./search";
import type { ListQuery } from "./query";
import { COMPONENT_KINDS, DEPENDENCY_FLAGS, ENVIRONMENTS, LIBRARY_MODELS, MOBILE_PLATFORMS, isValidName, validateComponent, type Component, type FieldIssue } from "./schema";
import { isPlainObject, mergePatch, renderUpdate } from "./writeback";
import { CatalogWriteError, issuesOfFields } from "./errors";

export type { CatalogEntry, ListResult } from "./search";
export type { CatalogError } from "./parse";

export interface Author {
  id: string;
  name: string;
  email?: string;
}

export interface RefreshSummary {
  components: number;
  errors: CatalogError[];
  stale: number;
  files: number;
  durationMs: number;
  /** Outcome of pulling the remote, when the repository has one. */
  pull?: { ok: boolean; message: string };
  /** What this refresh changed, so a person can be told in a sentence. */
  changes: RefreshChanges;
}

export interface RefreshChanges {
  /** Records present before and after whose file (or staleness) changed. */
  changed: number;
  added: number;
  removed: number;
  errorsBefore: number;
  errorsAfter: number;
}

/** What re-reading one record's file did. */
export interface RefreshOneResult {
  name: string;
  stale: boolean;
  removed: boolean;
  errors: CatalogError[];
  /** The record (or its staleness) is not what it was before. */
  changed: boolean;
}

/** A write that happened (or changed nothing); a refused one throws CatalogWriteError (./errors.ts). */
export type UpdateResult = { ok: true; entry: CatalogEntry; text: string; changed: boolean; commit?: string };

export interface CatalogOptions {
  repo: ConfigRepo;
  maxFileBytes?: number;
}

export interface CatalogOptionsAnswer {
  kinds: readonly string[];
  environments: readonly string[];
  platforms: readonly string[];
  dependencyFlags: readonly string[];
  libraryModels: readonly string[];
  owners: string[];
  groups: string[];
  registries: string[];
  publishStrategies: string[];
  visibilities: string[];
  apiVersions: string[];
}

export class Catalog {
  readonly repo: ConfigRepo;
  /** The config repository's one writer and reader of committed content. */
  readonly store: ConfigRepoStore;
  readonly maxFileBytes: number;
  private readonly index = new SearchIndex();
  private fileErrors = new Map<string, CatalogError[]>();
  /** The records files of a commit, read and parsed (cached by blob). */
  private readonly records: CommittedRecords;
  loadedAt: Date | null = null;
  /** The commit the records were read from. */
  loadedCommit: string | null = null;
  private loadedFiles = 0;

  constructor(options: CatalogOptions) {
    this.repo = options.repo;
    this.store = new ConfigRepoStore(options.repo);
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.records = new CommittedRecords(this.store, options.repo.componentsSubdir, this.maxFileBytes);
  }

  /** Stale locks removed, working tree reset to the branch: once per process, before the first read or write. */
  recover(): Promise<RecoveryReport> {
    return this.store.ensureRecovered();
  }

  /**
   * The config repository as the local provider serves it (repository "portal/config"): its writes run
   * under this catalog's lock, move the branch through the store, and refresh the catalog afterwards.
   */
  workingCopy(): WorkingCopy {
    return {
      dir: this.repo.dir,
      exclusive: (fn) => this.exclusive(fn),
      updateRef: (ref, sha, expected) => this.store.advance(ref, sha, expected),
      afterChange: async () => {
        await this.refresh({ pull: false });
      },
    };
  }

  /** Absolute path of the folder holding the records. */
  get configDir(): string {
    return path.join(this.repo.dir, this.repo.componentsSubdir);
  }

  get size(): number {
    return this.index.size;
  }

  get errors(): CatalogError[] {
    return [...this.fileErrors.keys()].sort().flatMap((f) => this.fileErrors.get(f) ?? []);
  }

  entries(): CatalogEntry[] {
    return this.index.entries();
  }

  get(name: string): CatalogEntry | undefined {
    return this.index.get(name);
  }

  list(query: ListQuery, favorites?: ReadonlySet<string>): ListResult {
    return this.index.list(query, favorites, this.fileErrors.size);
  }

  /** Forgets cached list results (they are also dropped on every change of the catalog). */
  clearQueryCache(): void {
    this.index.clearCache();
  }

  /** Re-reads every record from the branch's commit (after pulling, when the repository has a remote). */
  refresh(options: { pull?: boolean } = {}): Promise<RefreshSummary> {
    return this.store.exclusive(() => this.refreshLocked(options.pull ?? true));
  }

  private async refreshLocked(pull: boolean): Promise<RefreshSummary> {
    const started = performance.now();
    const errorsBefore = this.errors.length;
    let pullOutcome: RefreshSummary["pull"];
    if (pull && this.repo.remote) pullOutcome = await this.store.pull();
    const commit = await this.store.head();
    // A ref moved by a path that did not bring the working tree along (or by another process).
    await this.store.syncWorkingTree();
    if (this.loadedAt && commit === this.loadedCommit) {
      // The records are a function of the commit: nothing to read again.
      let unchangedStale = 0;
      for (const e of this.index.entries()) if (e.stale) unchangedStale++;
      const changes = { changed: 0, added: 0, removed: 0, errorsBefore, errorsAfter: errorsBefore };
      return { components: this.index.size, errors: this.errors, stale: unchangedStale, files: this.loadedFiles, durationMs: Math.round(performance.now() - started), pull: pullOutcome, changes };
    }
    const { files: committed, folderErrors } = commit ? await this.records.committedFiles(commit) : { files: [], folderErrors: [] };
    const files = committed.map((f) => f.file);
    const reads = await this.records.judge(committed);

    const previous = new Map(this.index.entries().map((e) => [e.name, e]));
    const previousNameOfFile = new Map([...previous.values()].map((e) => [e.file, e.name]));
    const fresh = new Map<string, CatalogEntry>();
    const errors = new Map<string, CatalogError[]>();
    const addError = (err: CatalogError) => {
      const list = errors.get(err.file) ?? [];
      list.push(err);
      errors.set(err.file, list);
    };
    for (const err of folderErrors) addError(err);
    const present = reads;
    const valid = present.filter((r) => r.result.ok) as (FileRead & { result: { ok: true; component: Component } })[];
    // A name keeps the file that held it before: a newly added duplicate is the one reported.
    const holdsBefore = (r: (typeof valid)[number]) => previousNameOfFile.get(r.file) === r.result.component.metadata.name;
    valid.sort((a, b) => Number(holdsBefore(b)) - Number(holdsBefore(a)) || (a.file < b.file ? -1 : 1));
    for (const r of valid) {
      const name = r.result.component.metadata.name;
      const holder = fresh.get(name);
      if (holder) {
        addError({ file: r.file, path: "metadata.name", message: `duplicate name "${name}": ${holder.file} already defines it; this file is ignored until one of the two is renamed` });
        continue;
      }
      fresh.set(name, { name, file: r.file, component: r.result.component, etag: r.etag, stale: false });
    }
    for (const r of present) {
      if (r.result.ok) continue;
      for (const err of r.result.errors) addError(err);
      const name = previousNameOfFile.get(r.file) ?? r.result.name;
      const before = name ? previous.get(name) : undefined;
      if (name && before && before.file === r.file && !fresh.has(name)) {
        const first = r.result.errors[0];
        fresh.set(name, {
          ...before,
          etag: r.etag,
          stale: true,
          staleReason: first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "the file no longer loads",
        });
      }
    }
    // Forget parse results of files that are gone.
    this.records.keepOnly(files);

    this.index.replaceAll(fresh.values());
    this.fileErrors = errors;
    this.loadedAt = new Date();
    this.loadedCommit = commit;
    this.loadedFiles = files.length;
    let stale = 0;
    for (const e of fresh.values()) if (e.stale) stale++;
    const changes: RefreshChanges = { changed: 0, added: 0, removed: 0, errorsBefore, errorsAfter: this.errors.length };
    for (const [name, now] of fresh) {
      const before = previous.get(name);
      if (!before) changes.added++;
      else if (before.etag !== now.etag || before.stale !== now.stale || before.file !== now.file) changes.changed++;
    }
    for (const name of previous.keys()) if (!fresh.has(name)) changes.removed++;
    return {
      components: fresh.size,
      errors: this.errors,
      stale,
      files: files.length,
      durationMs: Math.round(performance.now() - started),
      pull: pullOutcome,
      changes,
    };
  }

  /** Re-reads the file of one record. Answers null when no record has that name. */
  refreshOne(name: string): Promise<RefreshOneResult | null> {
    return this.store.exclusive(async () => {
      const entry = this.index.get(name);
      if (!entry) return null;
      const r = await this.records.readOne(entry.file, await this.store.head());
      if (!r) {
        this.index.remove(name);
        this.fileErrors.delete(entry.file);
        return { name, stale: false, removed: true, errors: [], changed: true };
      }
      if (r.result.ok && r.result.component.metadata.name !== name) {
        // Renamed in place: only a full refresh can settle names across files.
        await this.refreshLocked(false);
        const removed = !this.index.get(name);
        return { name, stale: false, removed, errors: this.fileErrors.get(entry.file) ?? [], changed: true };
      }
      this.applyRead(entry, r);
      const now = this.index.get(name);
      const changed = now?.etag !== entry.etag || now?.stale !== entry.stale;
      return { name, stale: now?.stale ?? false, removed: false, errors: this.fileErrors.get(entry.file) ?? [], changed };
    });
  }

  private applyRead(entry: CatalogEntry, r: FileRead): void {
    if (r.result.ok) {
      this.index.upsert({ name: entry.name, file: entry.file, component: r.result.component, etag: r.etag, stale: false });
      this.fileErrors.delete(entry.file);
    } else {
      const first = r.result.errors[0];
      this.index.upsert({ ...entry, etag: r.etag, stale: true, staleReason: first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "the file no longer loads" });
      this.fileErrors.set(entry.file, r.result.errors);
    }
  }

  /** The record's file as committed now (the branch's head), with its ETag. */
  async source(name: string): Promise<{ entry: CatalogEntry; text: string; etag: string } | null> {
    const entry = this.index.get(name);
    if (!entry) return null;
    const text = await this.committedText(entry.file);
    return { entry, text, etag: etagOf(text) };
  }

  /** Text of a regular file at `commit` (the branch's head by default); "" when absent or not a regular file. */
  private async committedText(file: string, commit?: string | null): Promise<string> {
    try {
      return (await this.store.readText(file, commit)) ?? "";
    } catch {
      return "";
    }
  }

  /**
   * PUT (mode replace: body is the whole record) or PATCH (mode merge: body is a JSON merge patch).
   * ifMatch: the ETag the client last saw, or "*" for an unconditional write.
   * Throws CatalogWriteError: not-found, precondition-failed (with the current etag), invalid-record (with
   * the issues), conflict (the commit could not be made).
   */
  update(name: string, request: { mode: "replace" | "merge"; body: unknown; ifMatch: string; author: Author; message?: string }): Promise<UpdateResult> {
    return this.store.exclusive(async () => {
      const entry = this.index.get(name);
      if (!entry) throw new CatalogWriteError("not-found", `no component named "${name}"`);
      type Built = { done: UpdateResult } | { text: string; newText: string; component: Component; reread: ParseResult };
      let outcome: { commit: string | null; value: Built };
      let builtOn: string | null = null;
      try {
        // Built on the branch's head; built again if another writer moves the branch meanwhile.
        outcome = await this.store.write<Built>(async (base) => {
          builtOn = base.head;
          const text = await this.committedText(entry.file, base.head);
          const built = buildUpdate(entry, text, request);
          if (!built.changed) return { plan: null, value: { done: { ok: true, entry: { ...entry, component: built.component }, text, changed: false } } };
          return {
            plan: { files: [{ path: entry.file, content: built.newText }], message: request.message ?? `Update component ${name}`, author: request.author },
            value: { text, newText: built.newText, component: built.component, reread: built.reread },
          };
        });
      } catch (e) {
        if (e instanceof CatalogWriteError) throw e;
        throw new CatalogWriteError("conflict", `the change could not be committed: ${(e as Error).message.split("\n")[0]}; refresh and try again`, { cause: e });
      }
      const built = outcome.value;
      if ("done" in built) return built.done;
      const updated: CatalogEntry = { name, file: entry.file, component: built.component, etag: etagOf(built.newText), stale: false };
      this.index.upsert(updated);
      this.fileErrors.delete(entry.file);
      const sha = await this.store.git.raw(["rev-parse", `${outcome.commit}:${entry.file}`]).then((s) => s.trim(), () => "");
      if (sha) this.records.remember(entry.file, { sha, etag: updated.etag, result: built.reread });
      // Loaded from the commit this one was built on: the catalog now shows exactly the new commit.
      if (builtOn !== null && builtOn === this.loadedCommit) this.loadedCommit = outcome.commit;
      return { ok: true, entry: updated, text: built.newText, changed: true, commit: outcome.commit ?? undefined };
    });
  }

  /**
   * The record's file as an update would write it, without writing it (a change proposed for review):
   * the same If-Match, validation and rendering (comments and key order kept) as update(), on the
   * branch's head. Throws CatalogWriteError like update().
   */
  async renderUpdate(name: string, request: { mode: "replace" | "merge"; body: unknown; ifMatch: string }): Promise<{ entry: CatalogEntry; text: string; newText: string; component: Component; changed: boolean }> {
    const entry = this.index.get(name);
    if (!entry) throw new CatalogWriteError("not-found", `no component named "${name}"`);
    const text = await this.committedText(entry.file);
    const built = buildUpdate(entry, text, request);
    return { entry, text, newText: built.changed ? built.newText : text, component: built.component, changed: built.changed };
  }

  /**
   * Hook for other writers of the config repository (lib/portal/gitops: persistent config, imports):
   * runs fn while holding this repository's write lock. Call refresh() afterwards, outside fn.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.store.exclusive(fn);
  }

  /** Values the forms need. */
  options(): CatalogOptionsAnswer {
    const owners = new Set<string>();
    const groups = new Set<string>();
    const registries = new Set<string>();
    const strategies = new Set<string>();
    const visibilities = new Set<string>();
    const apiVersions = new Set<string>();
    for (const { component: c } of this.index.entries()) {
      apiVersions.add(c.apiVersion);
      for (const o of c.spec.owners) {
        owners.add(o.user);
        if (o.group) groups.add(o.group);
      }
      if (c.spec.library) {
        registries.add(c.spec.library.defaultRegistry);
        if (c.spec.library.publish) {
          strategies.add(c.spec.library.publish.strategy);
          visibilities.add(c.spec.library.publish.visibilityPolicy.default);
        }
      }
    }
    const sorted = (s: Set<string>) => [...s].sort((a, b) => a.localeCompare(b));
    return {
      kinds: COMPONENT_KINDS,
      environments: ENVIRONMENTS,
      platforms: MOBILE_PLATFORMS,
      dependencyFlags: DEPENDENCY_FLAGS,
      libraryModels: LIBRARY_MODELS,
      owners: sorted(owners),
      groups: sorted(groups),
      registries: sorted(registries),
      publishStrategies: sorted(strategies),
      visibilities: sorted(visibilities),
      apiVersions: sorted(apiVersions),
    };
  }
}

/** The new text of a record's file for an update, checked as update() checks it. Pure but for the errors it throws. */
function buildUpdate(
  entry: CatalogEntry,
  text: string,
  request: { mode: "replace" | "merge"; body: unknown; ifMatch: string },
): { changed: false; component: Component } | { changed: true; newText: string; component: Component; reread: ParseResult & { ok: true } } {
  const name = entry.name;
  if (request.mode === "merge" && !isPlainObject(request.body)) {
    throw new CatalogWriteError("invalid-record", "a PATCH body must be a JSON object (merge patch)", { issues: [{ path: [], message: "expected a mapping" }] });
  }
  const etag = etagOf(text);
  if (!etagMatches(request.ifMatch, etag)) {
    throw new CatalogWriteError("precondition-failed", "the component changed since you loaded it; reload and apply your change again", { fields: { etag } });
  }
  const committed = parseComponentText(entry.file, text);
  const baseRecord = committed.ok ? committed.component : entry.component;
  const candidate = request.mode === "merge" ? mergePatch(baseRecord, request.body) : request.body;
  const checked = validateComponent(candidate);
  if (!checked.ok) throw invalidRecord(checked.issues);
  if (checked.component.metadata.name !== name) {
    throw new CatalogWriteError("invalid-record", "metadata.name cannot be changed", { issues: [{ path: ["metadata", "name"], message: `must stay "${name}"` }] });
  }
  const newText = renderUpdate(text, checked.component as unknown as Record<string, unknown>);
  if (newText === text) return { changed: false, component: checked.component };
  // Validate what will be written exactly as the loader will read it back.
  const reread = parseComponentText(entry.file, newText);
  if (!reread.ok) throw invalidRecord(reread.errors.map((e) => ({ path: e.path, message: e.message })));
  return { changed: true, newText, component: reread.component, reread };
}

/** If-Match: "*" or a list of (possibly weak) ETags. */
export function etagMatches(ifMatch: string, etag: string): boolean {
  const wanted = ifMatch.split(",").map((t) => t.trim().replace(/^W\//, ""));
  return wanted.includes("*") || wanted.includes(etag);
}

export { isValidName };

/** Opens the catalog as every portal process does: recovery of the repository first, then a load from the branch's commit. */
export async function openCatalog(options: CatalogOptions): Promise<Catalog> {
  const catalog = new Catalog(options);
  await catalog.recover();
  await catalog.refresh({ pull: false });
  return catalog;
}

function invalidRecord(issues: FieldIssue[]): CatalogWriteError {
  const first = issues[0];
  const where = first ? `: ${first.path ? `${first.path}: ` : ""}${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""}` : "";
  return new CatalogWriteError("invalid-record", `the record is not valid${where}`, { issues: issuesOfFields(issues) });
}
