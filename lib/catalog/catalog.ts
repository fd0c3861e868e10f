/**
 * The catalog: records loaded from the config repository, the errors of those that failed, an index
 * for list queries, and write-back (validated, comment-preserving, one git commit per change, authored
 * by the signed-in user, optimistic concurrency by ETag). Writes and refreshes are serialised per
 * repository by a mutex, so concurrent updates answer either success or 412 and none is lost.
 */
import { readdir, readFile, rename, writeFile } from "node:fs/promises";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { DEFAULT_MAX_FILE_BYTES, etagOf, formatBytes, parseComponentText, type CatalogError, type ParseResult } from "./parse";
import { Mutex } from "./lock";
import { authorString, type ConfigRepo } from "./repo";
import { SearchIndex, type CatalogEntry, type ListResult } from "./search";
import type { ListQuery } from "./query";
import { COMPONENT_KINDS, DEPENDENCY_FLAGS, ENVIRONMENTS, LIBRARY_MODELS, MOBILE_PLATFORMS, isValidName, validateComponent, type Component, type FieldIssue } from "./schema";
import { isPlainObject, mergePatch, renderUpdate } from "./writeback";

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
}

export type UpdateResult =
  | { ok: true; entry: CatalogEntry; text: string; changed: boolean; commit?: string }
  | { ok: false; status: 404; message: string }
  | { ok: false; status: 412; message: string; etag: string }
  | { ok: false; status: 422; message: string; issues: FieldIssue[] }
  | { ok: false; status: 409; message: string };

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

interface FileRead {
  file: string;
  etag: string;
  result: ParseResult;
}

const READ_BATCH = 250;

export class Catalog {
  readonly repo: ConfigRepo;
  readonly maxFileBytes: number;
  private readonly index = new SearchIndex();
  private fileErrors = new Map<string, CatalogError[]>();
  /** Parse results by file and content hash: a refresh re-parses only what changed. */
  private parseCache = new Map<string, { etag: string; result: ParseResult }>();
  private readonly mutex = new Mutex();
  loadedAt: Date | null = null;

  constructor(options: CatalogOptions) {
    this.repo = options.repo;
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
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

  private relative(file: string): string {
    return path.posix.join(this.repo.componentsSubdir.split(path.sep).join("/"), file);
  }

  /**
   * Reads and judges one file. Synchronous on purpose: thousands of small reads through the async
   * thread pool cost several times more; the bulk refresh yields to the event loop between batches.
   */
  private readOne(relFile: string): FileRead | null {
    const abs = path.join(this.repo.dir, relFile);
    let size: number;
    try {
      const s = statSync(abs);
      if (!s.isFile()) return null;
      size = s.size;
    } catch {
      return null;
    }
    if (size > this.maxFileBytes) {
      return {
        file: relFile,
        etag: `"size-${size}"`,
        result: { ok: false, errors: [{ file: relFile, path: "", message: `refused: the file is ${formatBytes(size)}; the limit is ${formatBytes(this.maxFileBytes)}` }] },
      };
    }
    let text: string;
    try {
      text = readFileSync(abs, "utf8");
    } catch (e) {
      return { file: relFile, etag: '"unreadable"', result: { ok: false, errors: [{ file: relFile, path: "", message: `cannot read the file: ${(e as Error).message}` }] } };
    }
    const etag = etagOf(text);
    const cached = this.parseCache.get(relFile);
    if (cached && cached.etag === etag) return { file: relFile, etag, result: cached.result };
    const result = parseComponentText(relFile, text);
    this.parseCache.set(relFile, { etag, result });
    return { file: relFile, etag, result };
  }

  private async listFiles(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.configDir);
    } catch {
      return [];
    }
    return names.filter((n) => /\.ya?ml$/.test(n)).sort().map((n) => this.relative(n));
  }

  /** Re-reads every file (after pulling, when the repository has a remote). */
  refresh(options: { pull?: boolean } = {}): Promise<RefreshSummary> {
    return this.mutex.run(() => this.refreshLocked(options.pull ?? true));
  }

  private async refreshLocked(pull: boolean): Promise<RefreshSummary> {
    const started = performance.now();
    let pullOutcome: RefreshSummary["pull"];
    if (pull && this.repo.remote) {
      try {
        const r = await this.repo.git.pull(["--ff-only"]);
        pullOutcome = { ok: true, message: `${r.summary.changes} files changed` };
      } catch (e) {
        pullOutcome = { ok: false, message: `pull failed, showing the local copy: ${(e as Error).message.split("\n")[0]}` };
      }
    }
    const files = await this.listFiles();
    const reads: FileRead[] = [];
    for (let i = 0; i < files.length; i++) {
      const r = this.readOne(files[i]);
      if (r) reads.push(r);
      // Let requests in between batches: a refresh of 10,000 files must not freeze the portal.
      if (i % READ_BATCH === READ_BATCH - 1) await new Promise((resolve) => setImmediate(resolve));
    }

    const previous = new Map(this.index.entries().map((e) => [e.name, e]));
    const previousNameOfFile = new Map([...previous.values()].map((e) => [e.file, e.name]));
    const fresh = new Map<string, CatalogEntry>();
    const errors = new Map<string, CatalogError[]>();
    const addError = (err: CatalogError) => {
      const list = errors.get(err.file) ?? [];
      list.push(err);
      errors.set(err.file, list);
    };
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
    const seen = new Set(files);
    for (const f of this.parseCache.keys()) if (!seen.has(f)) this.parseCache.delete(f);

    this.index.replaceAll(fresh.values());
    this.fileErrors = errors;
    this.loadedAt = new Date();
    let stale = 0;
    for (const e of fresh.values()) if (e.stale) stale++;
    return {
      components: fresh.size,
      errors: this.errors,
      stale,
      files: files.length,
      durationMs: Math.round(performance.now() - started),
      pull: pullOutcome,
    };
  }

  /** Re-reads the file of one record. Answers null when no record has that name. */
  refreshOne(name: string): Promise<{ name: string; stale: boolean; removed: boolean; errors: CatalogError[] } | null> {
    return this.mutex.run(async () => {
      const entry = this.index.get(name);
      if (!entry) return null;
      const r = this.readOne(entry.file);
      if (!r) {
        this.index.remove(name);
        this.fileErrors.delete(entry.file);
        return { name, stale: false, removed: true, errors: [] };
      }
      if (r.result.ok && r.result.component.metadata.name !== name) {
        // Renamed in place: only a full refresh can settle names across files.
        await this.refreshLocked(false);
        return { name, stale: false, removed: !this.index.get(name), errors: this.fileErrors.get(entry.file) ?? [] };
      }
      this.applyRead(entry, r);
      const now = this.index.get(name);
      return { name, stale: now?.stale ?? false, removed: false, errors: this.fileErrors.get(entry.file) ?? [] };
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

  /** The record's file as it is on disk now, with its ETag. */
  async source(name: string): Promise<{ entry: CatalogEntry; text: string; etag: string } | null> {
    const entry = this.index.get(name);
    if (!entry) return null;
    const text = await readFile(path.join(this.repo.dir, entry.file), "utf8").catch(() => "");
    return { entry, text, etag: etagOf(text) };
  }

  /**
   * PUT (mode replace: body is the whole record) or PATCH (mode merge: body is a JSON merge patch).
   * ifMatch: the ETag the client last saw, or "*" for an unconditional write.
   */
  update(name: string, request: { mode: "replace" | "merge"; body: unknown; ifMatch: string; author: Author; message?: string }): Promise<UpdateResult> {
    return this.mutex.run(async () => {
      const entry = this.index.get(name);
      if (!entry) return { ok: false, status: 404, message: `no component named "${name}"` };
      const abs = path.join(this.repo.dir, entry.file);
      const text = await readFile(abs, "utf8").catch(() => "");
      const etag = etagOf(text);
      if (!etagMatches(request.ifMatch, etag)) {
        return { ok: false, status: 412, message: "the component changed since you loaded it; reload and apply your change again", etag };
      }
      const onDisk = parseComponentText(entry.file, text);
      const base = onDisk.ok ? onDisk.component : entry.component;
      if (request.mode === "merge" && !isPlainObject(request.body)) {
        return { ok: false, status: 422, message: "a PATCH body must be a JSON object (merge patch)", issues: [{ path: "", message: "expected a mapping" }] };
      }
      const candidate = request.mode === "merge" ? mergePatch(base, request.body) : request.body;
      const checked = validateComponent(candidate);
      if (!checked.ok) return { ok: false, status: 422, message: "the record is not valid", issues: checked.issues };
      if (checked.component.metadata.name !== name) {
        return { ok: false, status: 422, message: "metadata.name cannot be changed", issues: [{ path: "metadata.name", message: `must stay "${name}"` }] };
      }
      const newText = renderUpdate(text, checked.component as unknown as Record<string, unknown>);
      if (newText === text) {
        return { ok: true, entry: { ...entry, component: checked.component }, text, changed: false };
      }
      // Validate what will be written exactly as the loader will read it back.
      const reread = parseComponentText(entry.file, newText);
      if (!reread.ok) {
        return { ok: false, status: 422, message: "the record is not valid", issues: reread.errors.map((e) => ({ path: e.path, message: e.message })) };
      }
      const tmp = `${abs}.${process.pid}.tmp`;
      await writeFile(tmp, newText, "utf8");
      await rename(tmp, abs);
      let commit: string | undefined;
      try {
        const summary = await this.repo.git.commit(request.message ?? `Update component ${name}`, [entry.file], { "--author": authorString(request.author) });
        commit = summary.commit || undefined;
        if (this.repo.remote) await this.repo.git.push();
      } catch (e) {
        // Undo: the working copy goes back to what it was, so nothing half-written stays.
        await writeFile(abs, text, "utf8");
        if (commit) await this.repo.git.raw(["reset", "--hard", "HEAD~1"]).catch(() => undefined);
        else await this.repo.git.raw(["checkout", "--", entry.file]).catch(() => undefined);
        return { ok: false, status: 409, message: `the change could not be committed: ${(e as Error).message.split("\n")[0]}; refresh and try again` };
      }
      const updated: CatalogEntry = { name, file: entry.file, component: reread.component, etag: etagOf(newText), stale: false };
      this.index.upsert(updated);
      this.fileErrors.delete(entry.file);
      this.parseCache.set(entry.file, { etag: updated.etag, result: reread });
      return { ok: true, entry: updated, text: newText, changed: true, commit };
    });
  }

  /**
   * Hook for other writers of the config repository (lib/portal/gitops: persistent config, imports):
   * runs fn while holding this repository's write lock. Call refresh() afterwards, outside fn.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.mutex.run(fn);
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

/** If-Match: "*" or a list of (possibly weak) ETags. */
export function etagMatches(ifMatch: string, etag: string): boolean {
  const wanted = ifMatch.split(",").map((t) => t.trim().replace(/^W\//, ""));
  return wanted.includes("*") || wanted.includes(etag);
}

export { isValidName };

export async function openCatalog(options: CatalogOptions): Promise<Catalog> {
  const catalog = new Catalog(options);
  await catalog.refresh({ pull: false });
  return catalog;
}
