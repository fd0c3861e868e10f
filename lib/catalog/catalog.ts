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
 *
 * With a snapshot file (snapshot.ts), a start takes the state saved at a commit instead of reading
 * every file: as is when the branch is still there, else with only the files changed since re-read.
 * The state is saved again (in the background, coalesced) whenever it is exactly the state of the
 * commit it was loaded from; a state that mixes commits (a record re-read or written on top of a
 * branch that moved meanwhile) is never saved, so a saved state is always keyed by its true commit
 * and a crash before a save only costs re-reading the files changed since the last one.
 */
import "server-only";
import path from "node:path";
import { DEFAULT_MAX_FILE_BYTES, etagOf, type CatalogError, type ParseResult } from "./parse";
import type { ConfigRepo } from "./repo";
import { ConfigRepoStore, type RecoveryReport } from "./store";
import { CommittedRecords, type FileRead, type Listing } from "./committed-records";
import { BlobTexts } from "./blob-texts";
import { readSnapshot, SnapshotWriter, type CatalogState, type SnapshotRead } from "./snapshot";
import type { WorkingCopy } from "../scm/local";
import type { CatalogEntry, ListResult } from "./search";
import { CatalogIndex } from "./catalog-index";
import type { RelationIndex } from "./relations";
import type { ListQuery } from "./query";
import type { Component } from "./schema";
import { CatalogWriteError } from "./errors";
import { reconcile, reconcileOne, type IndexChanges } from "./reconcile";
import { buildRecordUpdate } from "./record-update";
import { formOptions, type CatalogOptionsAnswer } from "./form-options";
import { DEFAULT_SCORECARD_RULES, evaluateComponent, parseScorecardRules, SCORECARD_RULES_FILE, type ComponentScorecard, type LevelRollup, type ScorecardFacts, type ScorecardRules } from "./scorecards";
import type { ScorecardIndex } from "./scorecard-index";

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

export interface RefreshChanges extends IndexChanges {
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
  /** Where the parsed state is kept between starts (snapshotFileFor(repo.dir)); absent: every start reads every file. */
  snapshotFile?: string;
  /** How long a change waits before the snapshot is written, so a burst of changes is written once (default 1000 ms). */
  snapshotDelayMs?: number;
}

/** How the last start or refresh got its records (for logs, tests and the benchmark). */
export interface LoadReport {
  /** snapshot: taken from the snapshot at HEAD; snapshot+diff: from an older one plus the changed files; full: every file listed. */
  source: "snapshot" | "snapshot+diff" | "diff" | "full" | "unchanged";
  /** Files whose blobs were read and parsed. */
  filesRead: number;
  /** Why a snapshot was not used, when there was one. */
  snapshotRefused?: string;
}

export class Catalog {
  readonly repo: ConfigRepo;
  /** The config repository's one writer and reader of committed content. */
  readonly store: ConfigRepoStore;
  readonly maxFileBytes: number;
  private readonly index = new CatalogIndex();
  private fileErrors = new Map<string, CatalogError[]>();
  /** The records files of a commit, read and parsed (cached by blob). */
  private readonly records: CommittedRecords;
  /** Record files' texts by blob, for the component answer's YAML. */
  private readonly blobTexts: BlobTexts;
  loadedAt: Date | null = null;
  /** The commit the records were read from. */
  loadedCommit: string | null = null;
  private loadedFiles = 0;
  /** The records files at loadedCommit: the next refresh derives the new listing from the diff. */
  private listing: Listing | null = null;
  /** True while the state holds a read or write from a commit other than loadedCommit: never saved then. */
  private mixed = false;
  private readonly snapshots: SnapshotWriter | null;
  /** The snapshot being read while the repository is recovered (openCatalog), taken by the first load. */
  private prefetched: Promise<SnapshotRead> | null = null;
  lastLoad: LoadReport | null = null;
  /** Blob of the scorecard rules file the rules in force came from: null for none (the default rules), undefined before the first read. */
  private rulesBlob: string | null | undefined = undefined;

  constructor(options: CatalogOptions) {
    this.repo = options.repo;
    this.store = new ConfigRepoStore(options.repo);
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.records = new CommittedRecords(this.store, options.repo.componentsSubdir, this.maxFileBytes);
    this.blobTexts = new BlobTexts(async (sha) => (await this.store.readBlobs([sha])).get(sha)?.toString("utf8") ?? null);
    this.snapshots = options.snapshotFile ? new SnapshotWriter(options.snapshotFile, options.snapshotDelayMs ?? 1000, () => this.captureState()) : null;
  }

  /** The snapshot file, when the catalog keeps one. */
  get snapshotFile(): string | null {
    return this.snapshots?.file ?? null;
  }

  /**
   * Starts reading the snapshot (file, checksum, parse) now, so that it overlaps the repository's
   * recovery, which runs in git processes; the first load takes it and checks it against HEAD then.
   */
  prefetchSnapshot(): void {
    if (!this.snapshots || this.loadedAt || this.prefetched) return;
    this.prefetched = readSnapshot(this.snapshots.file, { componentsSubdir: this.repo.componentsSubdir, maxFileBytes: this.maxFileBytes });
  }

  /** Writes the pending snapshot now and waits for it (tests, benchmarks, an orderly stop). */
  flushSnapshot(): Promise<void> {
    return this.snapshots?.flush() ?? Promise.resolve();
  }

  /** The state to save, or null when it is not exactly the state of one commit. */
  private captureState(): CatalogState | null {
    if (this.mixed || !this.loadedCommit || !this.listing) return null;
    return {
      commit: this.loadedCommit,
      componentsSubdir: this.repo.componentsSubdir,
      maxFileBytes: this.maxFileBytes,
      files: this.listing.files,
      folderErrors: this.listing.folderErrors,
      parsed: this.records.parsed(),
      entries: this.index.entries(),
      errors: new Map(this.fileErrors),
    };
  }

  /**
   * Takes the state of the snapshot when it can be trusted and its commit is in the repository;
   * answers why not otherwise (logged: the start then reads every file).
   */
  private async restoreSnapshot(head: string): Promise<{ ok: true } | { ok: false; reason?: string }> {
    if (!this.snapshots) return { ok: false };
    const read = await (this.prefetched ?? readSnapshot(this.snapshots.file, { componentsSubdir: this.repo.componentsSubdir, maxFileBytes: this.maxFileBytes }));
    this.prefetched = null;
    if ("missing" in read) return { ok: false };
    let reason = "refused" in read ? read.refused : null;
    if (!reason && "state" in read && read.state.commit !== head && !(await this.store.git.hasCommit(read.state.commit))) {
      reason = `its commit ${read.state.commit.slice(0, 12)} is not in the config repository`;
    }
    if (reason || !("state" in read)) {
      console.warn(`[catalog] not using the snapshot ${this.snapshots.file}: ${reason}; reading every record file`);
      return { ok: false, reason: reason ?? undefined };
    }
    const { state } = read;
    this.records.restore(state.parsed);
    this.index.replaceAll(state.entries);
    this.fileErrors = state.errors;
    this.listing = { files: state.files, folderErrors: state.folderErrors };
    this.loadedCommit = state.commit;
    this.loadedFiles = state.files.length;
    this.loadedAt = new Date();
    this.mixed = false;
    return { ok: true };
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

  /** Relations of the records on show (relations.ts): each one's, the graph, the warnings. */
  get relations(): RelationIndex {
    return this.index.relations;
  }

  /** One page of the list, each item with its scorecard level (null below the lowest). */
  list(query: ListQuery, favorites?: ReadonlySet<string>): Omit<ListResult, "items"> & { items: Array<ListResult["items"][number] & { level: string | null }> } {
    const result = this.index.list(query, favorites, this.fileErrors.size);
    const { levels } = this.index.scorecards.rules;
    return { ...result, items: result.items.map((i) => ({ ...i, level: levels[this.index.scorecards.levelIndexOf(i.name)] ?? null })) };
  }

  /** Forgets cached list results (they are also dropped on every change of the catalog). */
  clearQueryCache(): void {
    this.index.clearCache();
  }

  /**
   * Re-reads the records from the branch's commit (after pulling, when the repository has a remote): only
   * the files changed since the commit loaded. `following`: the pull follows a commit another instance
   * published (lib/portal/catalog-following.ts), so it is not announced again.
   */
  refresh(options: { pull?: boolean; following?: boolean } = {}): Promise<RefreshSummary> {
    return this.store.exclusive(() => this.refreshLocked(options.pull ?? true, options.following ?? false));
  }

  /** Tells `listener` each commit published on the served branch through this instance (ConfigRepoStore.onPublished). */
  onPublished(listener: (commit: string) => void): () => void {
    return this.store.onPublished(listener);
  }

  private async refreshLocked(pull: boolean, following: boolean): Promise<RefreshSummary> {
    const started = performance.now();
    const errorsBefore = this.errors.length;
    let pullOutcome: RefreshSummary["pull"];
    if (pull && this.repo.remote) {
      const { ok, message } = await this.store.pull({ quiet: following });
      pullOutcome = { ok, message };
    }
    const commit = await this.store.head();
    // A ref moved by a path that did not bring the working tree along (or by another process).
    await this.store.syncWorkingTree();
    const firstLoad = !this.loadedAt;
    // The rules first: restored or read records are then scored once, under the rules of this commit.
    if (firstLoad || commit !== this.loadedCommit || this.mixed) await this.loadScorecardRules(commit);
    const restored = firstLoad && commit ? await this.restoreSnapshot(commit) : null;
    if (this.loadedAt && commit === this.loadedCommit && !this.mixed) {
      // The records are a function of the commit: nothing to read again.
      let unchangedStale = 0;
      for (const e of this.index.entries()) if (e.stale) unchangedStale++;
      const changes = { changed: 0, added: 0, removed: 0, errorsBefore, errorsAfter: this.errors.length };
      this.lastLoad = { source: restored?.ok ? "snapshot" : "unchanged", filesRead: 0 };
      return { components: this.index.size, errors: this.errors, stale: unchangedStale, files: this.loadedFiles, durationMs: Math.round(performance.now() - started), pull: pullOutcome, changes };
    }
    let listing: Listing | null = null;
    if (commit && this.listing && this.loadedCommit) listing = await this.records.listingAfter(this.listing, this.loadedCommit, commit);
    const derived = listing !== null;
    listing ??= commit ? await this.records.committedFiles(commit) : { files: [], folderErrors: [] };
    const { files: committed, folderErrors } = listing;
    const files = committed.map((f) => f.file);
    const readBefore = this.records.filesRead;
    const reads = await this.records.judge(committed);
    this.lastLoad = {
      source: restored?.ok ? (derived ? "snapshot+diff" : "full") : derived ? "diff" : "full",
      filesRead: this.records.filesRead - readBefore,
      ...(restored && !restored.ok && restored.reason ? { snapshotRefused: restored.reason } : {}),
    };

    const next = reconcile(new Map(this.index.entries().map((e) => [e.name, e])), reads, folderErrors);
    // Forget parse results of files that are gone.
    this.records.keepOnly(files);

    this.index.replaceAll(next.entries.values());
    const rulesErrors = this.fileErrors.get(SCORECARD_RULES_FILE);
    this.fileErrors = next.errors;
    if (rulesErrors) this.fileErrors.set(SCORECARD_RULES_FILE, rulesErrors);
    this.loadedAt = new Date();
    this.loadedCommit = commit;
    this.loadedFiles = files.length;
    this.listing = listing;
    this.mixed = false;
    this.snapshots?.request();
    return {
      components: next.entries.size,
      errors: this.errors,
      stale: next.stale,
      files: files.length,
      durationMs: Math.round(performance.now() - started),
      pull: pullOutcome,
      changes: { ...next.changes, errorsBefore, errorsAfter: this.errors.length },
    };
  }

  /**
   * The scorecard rules of `commit` (SCORECARD_RULES_FILE), read when their blob changed: rules that
   * load are put in force (every record scored again); a file that does not load is a load error of that
   * file and the rules in force stay; no file: the default rules.
   */
  private async loadScorecardRules(commit: string | null): Promise<void> {
    const entry = commit ? await this.store.entryAt(commit, SCORECARD_RULES_FILE).catch(() => null) : null;
    const sha = entry?.kind === "file" || entry?.kind === "symlink" ? entry.sha : null;
    if (this.rulesBlob !== undefined && sha === this.rulesBlob) return;
    this.rulesBlob = sha;
    const refuse = (errors: CatalogError[]) => {
      this.fileErrors.set(SCORECARD_RULES_FILE, errors);
      console.warn(`[catalog] ${SCORECARD_RULES_FILE}: ${errors[0]?.message}; the scorecard rules in force stay`);
    };
    if (!entry) {
      this.fileErrors.delete(SCORECARD_RULES_FILE);
      this.index.setScorecardRules(DEFAULT_SCORECARD_RULES);
      return;
    }
    if (entry.kind !== "file") return refuse([{ file: SCORECARD_RULES_FILE, path: "", message: "refused: not a regular file (the catalog never follows a link)" }]);
    if (entry.size > this.maxFileBytes) return refuse([{ file: SCORECARD_RULES_FILE, path: "", message: `refused: ${entry.size} bytes, over the limit of ${this.maxFileBytes}` }]);
    const text = (await this.store.readBlobs([entry.sha])).get(entry.sha)?.toString("utf8") ?? "";
    const parsed = parseScorecardRules(text);
    if (!parsed.ok) return refuse(parsed.issues.map((i) => ({ file: SCORECARD_RULES_FILE, path: i.path, message: i.message })));
    this.fileErrors.delete(SCORECARD_RULES_FILE);
    this.index.setScorecardRules(parsed.rules);
  }

  /** The scorecard rules in force and every record's score (scorecard-index.ts). */
  get scorecards(): ScorecardIndex {
    return this.index.scorecards;
  }

  get scorecardRules(): ScorecardRules {
    return this.index.scorecards.rules;
  }

  /** One record's scorecard with each rule's outcome and why; null when no record has that name. */
  scorecardOf(name: string): ComponentScorecard | null {
    const entry = this.index.get(name);
    return entry ? evaluateComponent(this.index.scorecards.rules, entry.component, this.index.scorecards.facts) : null;
  }

  /** The facts the time-based scorecard rules read (lib/portal/scorecards.ts reads them from the database and source control). */
  setScorecardFacts(facts: ScorecardFacts): void {
    this.index.setScorecardFacts(facts);
  }

  /** Components per level over the records `names` picks (every record when absent). */
  levelRollup(names?: Iterable<string>): LevelRollup {
    return this.index.scorecards.rollup(names);
  }

  /** Re-reads the file of one record. Answers null when no record has that name. */
  refreshOne(name: string): Promise<RefreshOneResult | null> {
    return this.store.exclusive(async () => {
      const entry = this.index.get(name);
      if (!entry) return null;
      const head = await this.store.head();
      // A file read at another commit than the one loaded: this state is no longer one commit's.
      if (head !== this.loadedCommit) this.mixed = true;
      const r = await this.records.readOne(entry.file, head);
      if (!r) {
        this.index.remove(name);
        this.fileErrors.delete(entry.file);
        return { name, stale: false, removed: true, errors: [], changed: true };
      }
      if (r.result.ok && r.result.component.metadata.name !== name) {
        // Renamed in place: only a full refresh can settle names across files.
        await this.refreshLocked(false, false);
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
    const next = reconcileOne(entry, r);
    this.index.upsert(next.entry);
    if (next.errors) this.fileErrors.set(entry.file, next.errors);
    else this.fileErrors.delete(entry.file);
  }

  /**
   * The record's file as the catalog serves it (the blob it read last), with its ETag. Read by blob, not by
   * path at the branch's head: no tree of 100,000 files is walked per request, and the text is the one the
   * entry shows. A commit another instance made since arrives within the follow delay; an edit made
   * meanwhile on this text answers 412 with the current ETag, as any stale edit does.
   */
  async source(name: string): Promise<{ entry: CatalogEntry; text: string; etag: string } | null> {
    const entry = this.index.get(name);
    if (!entry) return null;
    const sha = this.records.blobOf(entry.file);
    const text = (sha ? await this.blobTexts.get(sha) : null) ?? (await this.committedText(entry.file));
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
          const built = buildRecordUpdate(entry, text, request);
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
      if (builtOn !== null && builtOn === this.loadedCommit && sha && this.listing) {
        // Loaded from the commit this one was built on: the catalog now shows exactly the new commit.
        this.loadedCommit = outcome.commit;
        const size = Buffer.byteLength(built.newText);
        this.listing = { ...this.listing, files: this.listing.files.map((f) => (f.file === entry.file ? { file: f.file, sha, size } : f)) };
        this.snapshots?.request();
      } else {
        // Written on top of a branch that moved since the load: the next refresh settles it.
        this.mixed = true;
      }
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
    const built = buildRecordUpdate(entry, text, request);
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
    return formOptions(this.index.entries());
  }
}




/** Opens the catalog as every portal process does: recovery of the repository first, then a load from the branch's commit. */
export async function openCatalog(options: CatalogOptions): Promise<Catalog> {
  const catalog = new Catalog(options);
  catalog.prefetchSnapshot();
  await catalog.recover();
  await catalog.refresh({ pull: false });
  return catalog;
}
