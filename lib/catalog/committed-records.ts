/**
 * The records files of a commit, read as the catalog serves them: ls-tree, then one cat-file --batch
 * for the blobs that changed. A symbolic link, a submodule or a file over the size limit is a load
 * error, never followed or read. Parse results are cached by file and blob, so a refresh re-parses
 * only what changed; when the listing of an earlier commit is known, the listing of a later one comes
 * from the files `git diff` names between the two, not from listing the whole folder again.
 */
import "server-only";
import path from "node:path";
import { etagOf, formatBytes, parseComponentText, type CatalogError, type ParseResult } from "./parse";
import type { ConfigRepoStore } from "./store";
import type { TreeEntryLong } from "../scm/git";

export interface FileRead {
  file: string;
  etag: string;
  result: ParseResult;
}

/** A parse result as the catalog caches it, by file and blob. */
export interface ParsedFile {
  sha: string;
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

/** The records files of one commit, and errors about the records folder itself. */
export interface Listing {
  files: CommittedFile[];
  folderErrors: CatalogError[];
}

/** Past this many changed paths one listing of the folder is cheaper than listing each of them. */
const MAX_DIFF_PATHS = 5000;
/** Paths per ls-tree call, well under the argument-length limit. */
const LS_TREE_PATHS = 500;
const byFile = (a: CommittedFile, b: CommittedFile) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
const LINK_REFUSAL = (target: string) => `refused: a symbolic link (to ${target}); the catalog reads regular files of the repository only and never follows a link`;

export class CommittedRecords {
  /** Parse results by file and blob: a refresh reads and re-parses only what changed. */
  private readonly parseCache = new Map<string, ParsedFile>();
  /** Files whose blobs were read to be parsed, since this object was made. */
  filesRead = 0;

  constructor(
    private readonly store: ConfigRepoStore,
    private readonly componentsSubdir: string,
    readonly maxFileBytes: number,
  ) {}

  private get subdir(): string {
    return this.componentsSubdir.split(path.sep).join("/");
  }

  /** The records files of a commit (regular files, and the links and other entries to refuse), sorted, plus errors about the folder itself. */
  async committedFiles(commit: string): Promise<Listing> {
    const dir = this.subdir;
    if (dir) {
      const folder = await this.store.entryAt(commit, dir);
      if (folder && folder.kind !== "other") {
        const what = folder.kind === "symlink" ? `a symbolic link (to ${folder.target})` : "a file";
        return { files: [], folderErrors: [{ file: dir, path: "", message: `refused: the records folder is ${what}; the catalog reads a folder of the repository and never follows a link` }] };
      }
    }
    const files = await this.recordsOf(await this.store.listDir(commit, dir));
    return { files: files.sort(byFile), folderErrors: [] };
  }

  /** Whether `p` names a records file directly inside the folder (a name ending .yaml or .yml). */
  private isRecordPath(p: string): boolean {
    const dir = this.subdir;
    if (dir && !p.startsWith(`${dir}/`)) return false;
    const name = p.slice(dir ? dir.length + 1 : 0);
    return !name.includes("/") && /\.ya?ml$/.test(name);
  }

  /** Tree entries → records files: regular files, and submodules and links as refusals (a link's target read to name it). */
  private async recordsOf(entries: TreeEntryLong[]): Promise<CommittedFile[]> {
    const files: CommittedFile[] = [];
    const links: Array<{ file: string; sha: string }> = [];
    for (const e of entries) {
      if (!this.isRecordPath(e.path) || e.type === "tree") continue;
      if (e.type === "commit") files.push({ file: e.path, sha: e.sha, size: 0, refused: "refused: a submodule, not a file" });
      else if (e.mode === "120000") links.push({ file: e.path, sha: e.sha });
      else files.push({ file: e.path, sha: e.sha, size: e.size ?? 0 });
    }
    if (links.length > 0) {
      const targets = await this.store.readBlobs(links.map((l) => l.sha));
      for (const l of links) files.push({ file: l.file, sha: l.sha, size: 0, refused: LINK_REFUSAL(targets.get(l.sha)?.toString("utf8") ?? "?") });
    }
    return files;
  }

  /**
   * The listing at `to`, from the listing at `from` and the paths `git diff` names between the two
   * (added, modified, deleted, type-changed; a rename is its old path deleted and its new one added).
   * Null when it cannot be derived that way (the folder itself changed, `from` is unknown to the
   * repository, or so much changed that one listing is cheaper): list the folder instead.
   */
  async listingAfter(previous: Listing, from: string, to: string): Promise<Listing | null> {
    if (previous.folderErrors.length > 0) return null;
    const dir = this.subdir;
    let out: string;
    try {
      out = await this.store.git.raw(["diff", "--name-status", "-z", "--no-renames", "--no-ext-diff", from, to, ...(dir ? ["--", dir] : [])], { GIT_LITERAL_PATHSPECS: "1" });
    } catch {
      return null;
    }
    const touched = new Set<string>();
    const fields = out.split("\0");
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const changed = fields[i + 1];
      // The folder itself turned into something else (a file, a link): list it as a whole.
      if (changed === dir) return null;
      if (this.isRecordPath(changed)) touched.add(changed);
    }
    if (touched.size === 0) return previous;
    if (touched.size > MAX_DIFF_PATHS) return null;
    const paths = [...touched];
    const entries: TreeEntryLong[] = [];
    for (let i = 0; i < paths.length; i += LS_TREE_PATHS) entries.push(...(await this.store.listPaths(to, paths.slice(i, i + LS_TREE_PATHS))));
    const now = await this.recordsOf(entries);
    const files = previous.files.filter((f) => !touched.has(f.file));
    files.push(...now);
    return { files: files.sort(byFile), folderErrors: [] };
  }

  /**
   * Judges committed files: from the cache when the blob is unchanged, else read (one cat-file for all,
   * each file parsed as its blob arrives) and parsed.
   */
  async judge(files: CommittedFile[]): Promise<FileRead[]> {
    const reads: Array<FileRead | undefined> = new Array(files.length);
    // Files to read, by blob (two files with the same content are one blob, judged once per file).
    const toRead = new Map<string, number[]>();
    for (let i = 0; i < files.length; i++) {
      const f = files[i];
      if (f.refused) {
        reads[i] = { file: f.file, etag: `"refused-${f.sha.slice(0, 12)}"`, result: { ok: false, errors: [{ file: f.file, path: "", message: f.refused }] } };
      } else if (f.size > this.maxFileBytes) {
        reads[i] = {
          file: f.file,
          etag: `"size-${f.size}"`,
          result: { ok: false, errors: [{ file: f.file, path: "", message: `refused: the file is ${formatBytes(f.size)}; the limit is ${formatBytes(this.maxFileBytes)}` }] },
        };
      } else {
        const cached = this.parseCache.get(f.file);
        if (cached && cached.sha === f.sha) reads[i] = { file: f.file, etag: cached.etag, result: cached.result };
        else {
          const at = toRead.get(f.sha);
          if (at) at.push(i);
          else toRead.set(f.sha, [i]);
        }
      }
    }
    let read = 0;
    for (const at of toRead.values()) read += at.length;
    this.filesRead += read;
    // Parsed as the blobs stream in: git reads the next ones meanwhile, and requests get turns between chunks.
    await this.store.eachBlob([...toRead.keys()], (sha, blob) => {
      const text = blob.toString("utf8");
      const etag = etagOf(text);
      for (const i of toRead.get(sha) ?? []) {
        const file = files[i].file;
        const result = parseComponentText(file, text, blob);
        this.parseCache.set(file, { sha, etag, result });
        reads[i] = { file, etag, result };
      }
    });
    for (let i = 0; i < files.length; i++) {
      reads[i] ??= { file: files[i].file, etag: '"unreadable"', result: { ok: false, errors: [{ file: files[i].file, path: "", message: "cannot read the file from the repository" }] } };
    }
    return reads as FileRead[];
  }

  /** Reads and judges one committed file; null when the commit has no such entry. */
  async readOne(file: string, commit: string | null): Promise<FileRead | null> {
    if (!commit) return null;
    const entry = await this.store.entryAt(commit, file);
    if (!entry || entry.kind === "other") return null;
    const committed: CommittedFile =
      entry.kind === "symlink"
        ? { file, sha: entry.sha, size: 0, refused: LINK_REFUSAL(entry.target) }
        : { file, sha: entry.sha, size: entry.size };
    return (await this.judge([committed]))[0];
  }

  /** The blob of a records file as the catalog read it last (the loaded commit, or this instance's own write since). */
  blobOf(file: string): string | undefined {
    return this.parseCache.get(file)?.sha;
  }

  /** Keeps the parse result of a file just written (its blob `sha`). */
  remember(file: string, parsed: ParsedFile): void {
    this.parseCache.set(file, parsed);
  }

  /** The parse results held (a copy: a snapshot is written from it while the catalog moves on). */
  parsed(): Map<string, ParsedFile> {
    return new Map(this.parseCache);
  }

  /** Takes the parse results of a snapshot (by file and blob: a result is reused only for the same blob). */
  restore(parsed: Map<string, ParsedFile>): void {
    this.parseCache.clear();
    for (const [file, p] of parsed) this.parseCache.set(file, p);
  }

  /** Forgets parse results of files that are gone. */
  keepOnly(files: Iterable<string>): void {
    const seen = new Set(files);
    for (const f of this.parseCache.keys()) if (!seen.has(f)) this.parseCache.delete(f);
  }
}
