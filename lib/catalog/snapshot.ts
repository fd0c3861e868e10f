/**
 * The catalog's parsed state on disk, so a restart serves the index without reading and parsing every
 * record again. A snapshot is the state at one commit of the config repository: its records listing,
 * the parse result of each file (by blob), the index entries (stale ones with their last valid version)
 * and the load errors. The catalog reuses it as is when the branch is still at that commit, and re-reads
 * only the files changed since otherwise (catalog.ts).
 *
 * File layout: one line of JSON (the header: format, version, loader rules, commit, body length and
 * SHA-256), then the body (JSON). A snapshot is trusted only when every header field matches and the
 * body's length and checksum are right; anything else (truncated, corrupt, another format or rules,
 * another folder or size limit) is refused with a reason, and the caller reads every file. Written to a
 * temporary file, flushed, then renamed over the old one, so a crash leaves the old snapshot or the new one.
 */
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { CatalogError } from "./parse";
import type { CommittedFile, ParsedFile } from "./committed-records";
import type { CatalogEntry } from "./search";
import type { Component } from "./schema";

export const SNAPSHOT_FORMAT = "portal-catalog-snapshot";
/** Layout of the body; bump when it changes. */
export const SNAPSHOT_VERSION = 1;
/**
 * Fingerprint of the rules that turn a file into a record or errors (parse.ts, fast-yaml.ts, schema.ts,
 * committed-records.ts). A snapshot made under other rules is read again in full. snapshot.integration.test.ts
 * recomputes it from those files and fails until it is updated here.
 */
export const LOADER_RULES = "b5573aeebab1e337";

/** The catalog's state at `commit`, as a snapshot holds it. */
export interface CatalogState {
  commit: string;
  componentsSubdir: string;
  maxFileBytes: number;
  /** The records files of the commit (what committedFiles() lists), sorted. */
  files: CommittedFile[];
  folderErrors: CatalogError[];
  /** Parse results by file (only those of the blob the listing names are kept). */
  parsed: Map<string, ParsedFile>;
  /** Index entries, stale ones included. */
  entries: CatalogEntry[];
  /** Load errors by file. */
  errors: Map<string, CatalogError[]>;
}

interface Header {
  format: string;
  version: number;
  rules: string;
  commit: string;
  componentsSubdir: string;
  maxFileBytes: number;
  bytes: number;
  sha256: string;
  records: number;
  writtenAt: string;
}

/**
 * One listed file, with its parse when the cache holds one for its blob. Decoded, the same object is
 * the listing's entry and the parse cache's (a component index in `result` is replaced by the component).
 */
interface FileRow {
  file: string;
  sha: string;
  size: number;
  refused?: string;
  etag?: string;
  result?: { ok: true; component: number | Component } | { ok: false; errors: CatalogError[]; name?: string };
}
/**
 * One index entry. Most are [file row, stale reason or null, component]: name, file and ETag are those of
 * the row (the record's name is its component's). Any other entry is stored whole.
 */
type EntryRow = [row: number, stale: string | null, component: number] | { name: string; file: string; component: number; etag: string; stale: boolean; staleReason?: string };

interface Body {
  components: Component[];
  files: FileRow[];
  folderErrors: CatalogError[];
  entries: EntryRow[];
  errors: Array<[string, CatalogError[]]>;
}

/** Records serialised between two yields to the event loop: a large snapshot never blocks requests for long. */
const CHUNK = 2000;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The snapshot file of a config repository: beside it, under the data directory. */
export function snapshotFileFor(repoDir: string): string {
  return path.join(path.dirname(repoDir), "catalog-snapshots", `${path.basename(repoDir)}.snapshot`);
}

/** The state as the body's JSON text, built in chunks. Components are stored once (a record and its file's parse result share one). */
async function encodeBody(state: CatalogState): Promise<string> {
  const ids = new Map<Component, number>();
  const components: Component[] = [];
  const idOf = (c: Component) => {
    let id = ids.get(c);
    if (id === undefined) {
      id = components.length;
      components.push(c);
      ids.set(c, id);
    }
    return id;
  };
  const rowOf = new Map<string, number>();
  const files: FileRow[] = state.files.map((f, i) => {
    rowOf.set(f.file, i);
    const row: FileRow = f.refused === undefined ? { file: f.file, sha: f.sha, size: f.size } : { file: f.file, sha: f.sha, size: f.size, refused: f.refused };
    const p = state.parsed.get(f.file);
    if (p && p.sha === f.sha) {
      row.etag = p.etag;
      row.result = p.result.ok ? { ok: true, component: idOf(p.result.component) } : p.result;
    }
    return row;
  });
  const entries: EntryRow[] = state.entries.map((e) => {
    const i = rowOf.get(e.file);
    const row = i === undefined ? undefined : files[i];
    if (i !== undefined && row?.etag === e.etag && e.component.metadata.name === e.name && (e.stale || e.staleReason === undefined)) return [i, e.stale ? (e.staleReason ?? "") : null, idOf(e.component)];
    return { ...e, component: idOf(e.component) };
  });
  const parts: string[] = ['{"components":['];
  for (let i = 0; i < components.length; i += CHUNK) {
    if (i > 0) {
      parts.push(",");
      await yieldToLoop();
    }
    parts.push(JSON.stringify(components.slice(i, i + CHUNK)).slice(1, -1));
  }
  parts.push('],"files":[');
  for (let i = 0; i < files.length; i += CHUNK) {
    if (i > 0) {
      parts.push(",");
      await yieldToLoop();
    }
    parts.push(JSON.stringify(files.slice(i, i + CHUNK)).slice(1, -1));
  }
  parts.push('],"folderErrors":', JSON.stringify(state.folderErrors));
  await yieldToLoop();
  parts.push(',"entries":', JSON.stringify(entries), ',"errors":', JSON.stringify([...state.errors]), "}");
  return parts.join("");
}

function decodeBody(body: Body, header: Header): CatalogState {
  const { components, files } = body;
  if (!Array.isArray(components) || !Array.isArray(files) || !Array.isArray(body.entries) || !Array.isArray(body.errors) || !Array.isArray(body.folderErrors)) {
    throw new Error("the body lacks a part");
  }
  const component = (id: number | Component) => {
    const c = typeof id === "number" ? components[id] : undefined;
    if (c === undefined) throw new Error(`the body names component ${String(id)}, which it does not hold`);
    return c;
  };
  // The rows become the listing's and the parse cache's objects as they are (fewer objects to make at start).
  const parsed = new Map<string, ParsedFile>();
  for (const row of files) {
    if (row.etag === undefined || row.result === undefined) continue;
    if (row.result.ok) row.result.component = component(row.result.component);
    parsed.set(row.file, row as ParsedFile);
  }
  const entries: CatalogEntry[] = body.entries.map((e) => {
    if (!Array.isArray(e)) return { ...e, component: component(e.component) };
    const [i, stale, c] = e;
    const row = files[i];
    if (!row || row.etag === undefined) throw new Error(`an entry names file row ${i}, which has no parse`);
    const comp = component(c);
    const entry: CatalogEntry = { name: comp.metadata.name, file: row.file, component: comp, etag: row.etag, stale: stale !== null };
    if (stale) entry.staleReason = stale;
    return entry;
  });
  return {
    commit: header.commit,
    componentsSubdir: header.componentsSubdir,
    maxFileBytes: header.maxFileBytes,
    files: files as CommittedFile[],
    folderErrors: body.folderErrors,
    parsed,
    entries,
    errors: new Map(body.errors),
  };
}

/** Writes `state` to `file` (atomically: a temporary file, flushed, renamed into place). */
export async function writeSnapshot(file: string, state: CatalogState): Promise<{ bytes: number }> {
  const body = Buffer.from(await encodeBody(state), "utf8");
  const header: Header = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    rules: LOADER_RULES,
    commit: state.commit,
    componentsSubdir: state.componentsSubdir,
    maxFileBytes: state.maxFileBytes,
    bytes: body.length,
    sha256: createHash("sha256").update(body).digest("hex"),
    records: state.entries.length,
    writtenAt: new Date().toISOString(),
  };
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  try {
    const handle = await open(tmp, "w");
    try {
      await handle.writeFile(`${JSON.stringify(header)}\n`);
      await handle.writeFile(body);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  return { bytes: body.length };
}

/** What reading a snapshot gave: its state, nothing (no file), or the reason it cannot be trusted. */
export type SnapshotRead = { state: CatalogState } | { missing: true } | { refused: string };

/**
 * Reads and checks a snapshot for a repository whose records sit in `componentsSubdir`, loaded with
 * `maxFileBytes`. Never throws: any doubt is a refusal.
 */
export async function readSnapshot(file: string, expected: { componentsSubdir: string; maxFileBytes: number }): Promise<SnapshotRead> {
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { missing: true };
    return { refused: `it cannot be read (${(e as Error).message})` };
  }
  const eol = data.indexOf(10);
  if (eol < 0) return { refused: "it has no header line (truncated)" };
  let header: Header;
  try {
    header = JSON.parse(data.subarray(0, eol).toString("utf8")) as Header;
  } catch {
    return { refused: "its header is not readable (corrupt)" };
  }
  if (header === null || typeof header !== "object" || header.format !== SNAPSHOT_FORMAT) return { refused: "it is not a catalog snapshot" };
  if (header.version !== SNAPSHOT_VERSION) return { refused: `it has format version ${String(header.version)}; this portal writes version ${SNAPSHOT_VERSION}` };
  if (header.rules !== LOADER_RULES) return { refused: "it was made under other loading rules (another portal version)" };
  if (typeof header.commit !== "string" || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(header.commit)) return { refused: "its commit is not a commit id" };
  if (header.componentsSubdir !== expected.componentsSubdir) return { refused: `it holds the records folder "${header.componentsSubdir}", not "${expected.componentsSubdir}"` };
  if (header.maxFileBytes !== expected.maxFileBytes) return { refused: `it was made with a file size limit of ${header.maxFileBytes} bytes, not ${expected.maxFileBytes}` };
  const body = data.subarray(eol + 1);
  if (body.length !== header.bytes) return { refused: `its body has ${body.length} bytes where its header says ${header.bytes} (truncated or partial)` };
  if (createHash("sha256").update(body).digest("hex") !== header.sha256) return { refused: "its checksum does not match (corrupt)" };
  try {
    return { state: decodeBody(JSON.parse(body.toString("utf8")) as Body, header) };
  } catch (e) {
    return { refused: `its body is not readable (${(e as Error).message})` };
  }
}

/**
 * Writes the catalog's snapshot in the background: a request waits `delayMs` (so a burst of changes is
 * written once), then the state is captured in one go and written; requests meanwhile start another
 * write afterwards. A failure is logged and costs nothing but a slower next start.
 */
export class SnapshotWriter {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private wanted = false;

  constructor(
    readonly file: string,
    private readonly delayMs: number,
    private readonly capture: () => CatalogState | null,
  ) {}

  request(): void {
    this.wanted = true;
    if (this.timer || this.running) return;
    this.timer = setTimeout(() => void this.start(), this.delayMs);
    // A pending write never keeps the process alive: losing it costs a re-read of the changes.
    this.timer.unref();
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.running && this.wanted) void this.start();
    while (this.running) await this.running;
  }

  private start(): Promise<void> {
    this.timer = null;
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.wanted) {
      this.wanted = false;
      const state = this.capture();
      if (!state) continue;
      try {
        await writeSnapshot(this.file, state);
      } catch (e) {
        console.error(`[catalog] the snapshot ${this.file} could not be written: ${(e as Error).message}`);
      }
    }
  }
}
