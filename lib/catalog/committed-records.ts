/**
 * The records files of a commit, read as the catalog serves them: ls-tree, then one cat-file --batch
 * for the blobs that changed. A symbolic link, a submodule or a file over the size limit is a load
 * error, never followed or read. Parse results are cached by file and blob, so a refresh re-parses
 * only what changed.
 */
import path from "node:path";
import { etagOf, formatBytes, parseComponentText, type CatalogError, type ParseResult } from "./parse";
import type { ConfigRepoStore } from "./store";

export interface FileRead {
  file: string;
  etag: string;
  result: ParseResult;
}

/** One records file as committed: its blob (null when it is not a regular file) and what it is. */
export interface CommittedFile {
  file: string;
  sha: string;
  size: number;
  /** Set when the entry is not a regular file: the load error to report. */
  refused?: string;
}

const READ_BATCH = 250;

export class CommittedRecords {
  /** Parse results by file and blob: a refresh reads and re-parses only what changed. */
  private readonly parseCache = new Map<string, { sha: string; etag: string; result: ParseResult }>();

  constructor(
    private readonly store: ConfigRepoStore,
    private readonly componentsSubdir: string,
    readonly maxFileBytes: number,
  ) {}

  private get subdir(): string {
    return this.componentsSubdir.split(path.sep).join("/");
  }

  /** The records files of a commit (regular files, and the links and other entries to refuse), sorted, plus errors about the folder itself. */
  async committedFiles(commit: string): Promise<{ files: CommittedFile[]; folderErrors: CatalogError[] }> {
    const dir = this.subdir;
    if (dir) {
      const folder = await this.store.entryAt(commit, dir);
      if (folder && folder.kind !== "other") {
        const what = folder.kind === "symlink" ? `a symbolic link (to ${folder.target})` : "a file";
        return { files: [], folderErrors: [{ file: dir, path: "", message: `refused: the records folder is ${what}; the catalog reads a folder of the repository and never follows a link` }] };
      }
    }
    const files: CommittedFile[] = [];
    const links: Array<{ file: string; sha: string }> = [];
    for (const e of await this.store.listDir(commit, dir)) {
      const name = e.path.slice(dir ? dir.length + 1 : 0);
      if (!/\.ya?ml$/.test(name) || e.type === "tree") continue;
      if (e.type === "commit") files.push({ file: e.path, sha: e.sha, size: 0, refused: "refused: a submodule, not a file" });
      else if (e.mode === "120000") links.push({ file: e.path, sha: e.sha });
      else files.push({ file: e.path, sha: e.sha, size: e.size ?? 0 });
    }
    if (links.length > 0) {
      const targets = await this.store.readBlobs(links.map((l) => l.sha));
      for (const l of links) {
        const target = targets.get(l.sha)?.toString("utf8") ?? "?";
        files.push({ file: l.file, sha: l.sha, size: 0, refused: `refused: a symbolic link (to ${target}); the catalog reads regular files of the repository only and never follows a link` });
      }
    }
    files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    return { files, folderErrors: [] };
  }

  /** Judges committed files: from the cache when the blob is unchanged, else read (one cat-file for all) and parsed. */
  async judge(files: CommittedFile[]): Promise<FileRead[]> {
    const toRead = files.filter((f) => !f.refused && f.size <= this.maxFileBytes && this.parseCache.get(f.file)?.sha !== f.sha);
    const blobs = await this.store.readBlobs(toRead.map((f) => f.sha));
    const reads: FileRead[] = [];
    for (let i = 0; i < files.length; i++) {
      const f = files[i];
      if (f.refused) {
        reads.push({ file: f.file, etag: `"refused-${f.sha.slice(0, 12)}"`, result: { ok: false, errors: [{ file: f.file, path: "", message: f.refused }] } });
        continue;
      }
      if (f.size > this.maxFileBytes) {
        reads.push({
          file: f.file,
          etag: `"size-${f.size}"`,
          result: { ok: false, errors: [{ file: f.file, path: "", message: `refused: the file is ${formatBytes(f.size)}; the limit is ${formatBytes(this.maxFileBytes)}` }] },
        });
        continue;
      }
      const cached = this.parseCache.get(f.file);
      if (cached && cached.sha === f.sha) {
        reads.push({ file: f.file, etag: cached.etag, result: cached.result });
        continue;
      }
      const blob = blobs.get(f.sha);
      if (!blob) {
        reads.push({ file: f.file, etag: '"unreadable"', result: { ok: false, errors: [{ file: f.file, path: "", message: "cannot read the file from the repository" }] } });
        continue;
      }
      const text = blob.toString("utf8");
      const etag = etagOf(text);
      const result = parseComponentText(f.file, text);
      this.parseCache.set(f.file, { sha: f.sha, etag, result });
      reads.push({ file: f.file, etag, result });
      // Let requests in between batches: a load of 10,000 files must not freeze the portal.
      if (i % READ_BATCH === READ_BATCH - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    return reads;
  }

  /** Reads and judges one committed file; null when the commit has no such entry. */
  async readOne(file: string, commit: string | null): Promise<FileRead | null> {
    if (!commit) return null;
    const entry = await this.store.entryAt(commit, file);
    if (!entry || entry.kind === "other") return null;
    const committed: CommittedFile =
      entry.kind === "symlink"
        ? { file, sha: entry.sha, size: 0, refused: `refused: a symbolic link (to ${entry.target}); the catalog reads regular files of the repository only and never follows a link` }
        : { file, sha: entry.sha, size: entry.size };
    return (await this.judge([committed]))[0];
  }

  /** Keeps the parse result of a file just written (its blob `sha`). */
  remember(file: string, parsed: { sha: string; etag: string; result: ParseResult }): void {
    this.parseCache.set(file, parsed);
  }

  /** Forgets parse results of files that are gone. */
  keepOnly(files: Iterable<string>): void {
    const seen = new Set(files);
    for (const f of this.parseCache.keys()) if (!seen.has(f)) this.parseCache.delete(f);
  }
}
