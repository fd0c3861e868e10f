// Over 400 lines on purpose: RepoGit is one thin wrapper per git plumbing command over one repository; splitting it would scatter a flat list.
/**
 * Git plumbing over one repository (bare, or a working copy) with simple-git: commits without a
 * working tree (a private index), merges with `git merge-tree --write-tree` (git ≥ 2.38), annotated
 * tags, and bulk reads of committed content (`ls-tree`, `cat-file --batch`). Nothing here touches a
 * working tree or the shared index, so a crash at any instant leaves every ref at its old commit or
 * its new one. Refs move by compare-and-swap; a working copy passes its own `updateRef` (the config
 * repository's one writer) so that moving its served branch also publishes it. Callers serialise
 * per repository.
 */
import "server-only";
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ScmError, type ScmAuthor, type ScmFileChange, type ScmFileDiff, type ScmTag, type ScmTreeEntry } from "./types";

const ZERO = "0000000000000000000000000000000000000000";
export const PORTAL_IDENTITY: ScmAuthor = { name: "Platform Portal", email: "portal@localhost" };

function identityEnv(author: ScmAuthor | undefined, date?: string): Record<string, string> {
  const a = author ?? PORTAL_IDENTITY;
  const env: Record<string, string> = {
    GIT_AUTHOR_NAME: a.name,
    GIT_AUTHOR_EMAIL: a.email,
    GIT_COMMITTER_NAME: PORTAL_IDENTITY.name,
    GIT_COMMITTER_EMAIL: PORTAL_IDENTITY.email,
  };
  if (date) {
    env.GIT_AUTHOR_DATE = date;
    env.GIT_COMMITTER_DATE = date;
  }
  return env;
}

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  // Only what git needs: no EDITOR or PAGER, and no GIT_* from the host leaking in.
  for (const k of ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "USER", "SYSTEMROOT"]) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_CONFIG_NOSYSTEM = "1";
  return env;
}

export interface GitRun {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs git in `cwd` and answers its exit status and output. Plumbing is spawned directly rather than
 * through simple-git: it waits 50 ms after every command that prints nothing (most plumbing does),
 * and cannot tell a quiet "no" (exit 1) from success.
 */
export function runGit(cwd: string, args: string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, env: { ...baseEnv(), ...options.env } as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: err }));
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
  });
}

/** A git command that failed: its exit status and what it said. */
export class GitCommandError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number,
    readonly stderr: string,
    readonly stdout: string,
  ) {
    super(`git ${args[0] ?? ""} failed (exit ${code}): ${(stderr || stdout).trim()}`);
    this.name = "GitCommandError";
  }
}

/** Moves `ref` to `sha` only if it still points at `expected` (null: only if it does not exist yet). */
export type RefUpdater = (ref: string, sha: string, expected: string | null) => Promise<void>;

/** A compare-and-swap on a ref lost: the ref moved (or is locked) since it was read. */
export class RefMovedError extends ScmError {
  static readonly brand: string = "scm.RefMovedError";

  constructor(
    readonly ref: string,
    detail: string,
  ) {
    super("conflict", `${ref} changed meanwhile (${detail}); try again`);
    this.name = "RefMovedError";
  }
}

/** One entry of a tree listing with its mode and size (`ls-tree --long`). */
export interface TreeEntryLong {
  /** 100644, 100755 (files), 120000 (symbolic link), 040000 (tree), 160000 (submodule). */
  mode: string;
  type: "blob" | "tree" | "commit";
  sha: string;
  /** Bytes of a blob; null for trees and submodules. */
  size: number | null;
  /** Path from the repository root. */
  path: string;
}

export const SYMLINK_MODE = "120000";

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e)
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)[0] ?? "git failed";
}

export class RepoGit {
  constructor(
    readonly dir: string,
    private readonly options: {
      updateRef?: RefUpdater;
      /** Where commits build their private index (default: the system's temp folder). */
      scratchDir?: string;
    } = {},
  ) {}

  /** Runs git; answers its standard output, or throws GitCommandError when it exits with a non-zero status. */
  async raw(args: string[], env?: Record<string, string>, input?: string): Promise<string> {
    const r = await runGit(this.dir, args, { env, input });
    if (r.code !== 0) throw new GitCommandError(args, r.code, r.stderr, r.stdout.toString());
    return r.stdout.toString();
  }

  static async initBare(dir: string, defaultBranch = "main"): Promise<RepoGit> {
    const r = await runGit(path.dirname(path.resolve(dir)), ["init", "--bare", "--quiet", `--initial-branch=${defaultBranch}`, path.resolve(dir)]);
    if (r.code !== 0) throw new GitCommandError(["init"], r.code, r.stderr, r.stdout.toString());
    return new RepoGit(dir);
  }

  async defaultBranch(): Promise<string> {
    const ref = (await this.raw(["symbolic-ref", "HEAD"]).catch(() => "refs/heads/main")).trim();
    return ref.replace(/^refs\/heads\//, "");
  }

  /** Commit SHA a ref names, or null. */
  async resolve(ref: string): Promise<string | null> {
    if (ref.startsWith("-")) return null;
    try {
      return (await this.raw(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])).trim() || null;
    } catch {
      return null;
    }
  }

  async branchSha(branch: string): Promise<string | null> {
    try {
      return (await this.raw(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`])).trim() || null;
    } catch {
      return null;
    }
  }

  /** Every branch's commit, in one git process (a list of merge requests needs both ends of each). */
  async branchShas(): Promise<Map<string, string>> {
    const out = await this.raw(["for-each-ref", "--format=%(objectname) %(refname)", "refs/heads"]);
    const shas = new Map<string, string>();
    for (const line of out.split("\n")) {
      const space = line.indexOf(" ");
      if (space > 0) shas.set(line.slice(space + 1).replace(/^refs\/heads\//, ""), line.slice(0, space));
    }
    return shas;
  }

  async readFile(ref: string, filePath: string): Promise<string | null> {
    if (ref.startsWith("-")) return null;
    // One git process (a busy machine pays for each): the ref peeled to its commit, then the path. A
    // missing ref or path, a folder or a submodule is no blob: cat-file fails and the answer is null.
    const run = await runGit(this.dir, ["cat-file", "blob", `${ref}^{commit}:${filePath}`]);
    return run.code === 0 ? run.stdout.toString() : null;
  }

  async listTree(ref: string, dir: string | undefined, recursive: boolean): Promise<ScmTreeEntry[]> {
    const sha = await this.resolve(ref);
    if (!sha) return [];
    const treeish = dir ? `${sha}:${dir}` : sha;
    let out: string;
    try {
      out = await this.raw(["ls-tree", ...(recursive ? ["-r", "-t"] : []), "-z", treeish]);
    } catch {
      return [];
    }
    const prefix = dir ? `${dir}/` : "";
    return out
      .split("\0")
      .filter(Boolean)
      .map((line) => {
        const tab = line.indexOf("\t");
        const [, type] = line.slice(0, tab).split(" ");
        return { path: prefix + line.slice(tab + 1), type: type === "tree" ? "tree" : "blob" } as ScmTreeEntry;
      })
      .filter((e) => e.type === "tree" || e.type === "blob");
  }

  /**
   * Writes a commit of `files` on top of `parent` (null: a root commit) and moves `branch` to it,
   * only if the branch still points where it did (compare-and-swap on the ref).
   */
  async commitFiles(options: { branch: string; parent: string | null; branchExists: boolean; files: ScmFileChange[]; message: string; author?: ScmAuthor; date?: string }): Promise<string> {
    if (this.options.scratchDir) await mkdir(this.options.scratchDir, { recursive: true });
    const tmp = await mkdtemp(path.join(this.options.scratchDir ?? tmpdir(), "scm-commit-"));
    try {
      // An empty work tree of our own: index commands need one even in a bare repository.
      await mkdir(path.join(tmp, "wt"));
      const indexEnv = { GIT_INDEX_FILE: path.join(tmp, "index"), GIT_WORK_TREE: path.join(tmp, "wt") };
      if (options.parent) await this.raw(["read-tree", options.parent], indexEnv);
      else await this.raw(["read-tree", "--empty"], indexEnv);
      for (const f of options.files) {
        if (f.content === null) {
          await this.raw(["update-index", "--force-remove", "--", f.path], indexEnv);
          continue;
        }
        const blob = (await this.raw(["hash-object", "-w", "--stdin"], undefined, f.content)).trim();
        await this.raw(["update-index", "--add", "--cacheinfo", `100644,${blob},${f.path}`], indexEnv);
      }
      const tree = (await this.raw(["write-tree"], indexEnv)).trim();
      const args = ["commit-tree", tree, ...(options.parent ? ["-p", options.parent] : []), "-m", options.message];
      const sha = (await this.raw(args, identityEnv(options.author, options.date))).trim();
      await this.updateRef(`refs/heads/${options.branch}`, sha, options.branchExists && options.parent ? options.parent : null);
      return sha;
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }

  /** Compare-and-swap of a ref; throws RefMovedError when it no longer points at `expected`. */
  async casRef(ref: string, sha: string, expected: string | null): Promise<void> {
    try {
      await this.raw(["update-ref", ref, sha, expected ?? ZERO]);
    } catch (e) {
      throw new RefMovedError(ref, firstLine(e));
    }
  }

  /** Deletes a ref only if it still points at `expected`. */
  async casDeleteRef(ref: string, expected: string): Promise<void> {
    try {
      await this.raw(["update-ref", "-d", ref, expected]);
    } catch (e) {
      throw new RefMovedError(ref, firstLine(e));
    }
  }

  /** Moves a ref through the repository's writer when it has one, else by compare-and-swap. */
  private updateRef(ref: string, sha: string, expected: string | null): Promise<void> {
    return this.options.updateRef ? this.options.updateRef(ref, sha, expected) : this.casRef(ref, sha, expected);
  }

  /** Entries of `dir` (the root by default) at a commit, with modes and sizes; [] when absent. */
  async listTreeLong(ref: string, dir?: string): Promise<TreeEntryLong[]> {
    let out: string;
    try {
      out = await this.raw(["ls-tree", "-z", "--long", "--full-tree", ref, ...(dir ? ["--", `${dir.replace(/\/+$/, "")}/`] : [])]);
    } catch {
      return [];
    }
    return parseLongListing(out);
  }

  /** The entries at exactly these paths in a commit (paths taken literally; absent ones are left out). */
  async listPathsLong(ref: string, paths: string[]): Promise<TreeEntryLong[]> {
    if (paths.length === 0) return [];
    const out = await this.raw(["ls-tree", "-z", "--long", "--full-tree", ref, "--", ...paths], { GIT_LITERAL_PATHSPECS: "1" });
    const wanted = new Set(paths);
    return parseLongListing(out).filter((e) => wanted.has(e.path));
  }

  /** Whether the repository holds this commit. */
  async hasCommit(sha: string): Promise<boolean> {
    return (await runGit(this.dir, ["cat-file", "-e", `${sha}^{commit}`])).code === 0;
  }

  /** The entry at exactly `filePath` in a commit, or null. */
  async entryAt(ref: string, filePath: string): Promise<TreeEntryLong | null> {
    let out: string;
    try {
      out = await this.raw(["ls-tree", "-z", "--long", "--full-tree", ref, "--", filePath]);
    } catch {
      return null;
    }
    return parseLongListing(out).find((e) => e.path === filePath) ?? null;
  }

  /**
   * Contents of many blobs through one `git cat-file --batch` process (10,000 small files in well
   * under a second). Missing objects are absent from the answer.
   */
  async readBlobs(shas: string[]): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    await this.eachBlob(shas, (sha, data) => found.set(sha, data));
    return found;
  }

  /**
   * Hands each blob to `onBlob` as `git cat-file --batch` prints it, so the caller works on the first
   * blobs while git still reads the others (the two run on two cores). Missing objects are skipped;
   * an error thrown by `onBlob` stops git and rejects.
   */
  eachBlob(shas: string[], onBlob: (sha: string, data: Buffer) => void): Promise<void> {
    const wanted = [...new Set(shas)];
    if (wanted.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const child = spawn("git", ["cat-file", "--batch"], { cwd: this.dir, env: baseEnv() as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
      let pending: Buffer = Buffer.alloc(0);
      let failure: unknown = null;
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => {
        if (failure) return;
        const out = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        let at = 0;
        for (;;) {
          const eol = out.indexOf(10, at);
          if (eol < 0) break;
          const [sha, type, size] = out.toString("latin1", at, eol).split(" ");
          if (type === "missing" || size === undefined) {
            at = eol + 1;
            continue;
          }
          const end = eol + 1 + Number(size);
          // The blob and the newline after it have not all arrived yet.
          if (out.length <= end) break;
          try {
            onBlob(sha, out.subarray(eol + 1, end));
          } catch (e) {
            failure = e;
            child.kill();
            return;
          }
          at = end + 1;
        }
        pending = out.subarray(at);
      });
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      child.on("error", reject);
      child.on("close", (code) => {
        if (failure) return reject(failure);
        if (code !== 0) return reject(new Error(`git cat-file --batch failed (${code}): ${stderr.trim()}`));
        resolve();
      });
      child.stdin.on("error", () => undefined);
      child.stdin.end(wanted.join("\n") + "\n");
    });
  }

  /**
   * The commit on `target`'s first-parent line that brought `source` in (a merge with `source` as a
   * parent), or `source` itself when it got there without one (fast-forward). Null when `source` is
   * not contained in `target`.
   */
  async mergeCommitOf(source: string, target: string): Promise<string | null> {
    if (!(await this.isAncestor(source, target))) return null;
    if (source === target) return source;
    const out = await this.raw(["rev-list", "--first-parent", "--ancestry-path", "--reverse", "--parents", `${source}..${target}`]).catch(() => "");
    for (const line of out.split("\n").filter(Boolean)) {
      const [commit, ...parents] = line.split(" ");
      if (parents.includes(source)) return commit;
    }
    return source;
  }

  async treeOf(sha: string): Promise<string> {
    return (await this.raw(["rev-parse", `${sha}^{tree}`])).trim();
  }

  async createBranch(branch: string, sha: string): Promise<void> {
    await this.raw(["update-ref", `refs/heads/${branch}`, sha, ZERO]);
  }

  async deleteBranch(branch: string): Promise<void> {
    await this.raw(["update-ref", "-d", `refs/heads/${branch}`]).catch(() => undefined);
  }

  /** True when `ancestor` is reachable from `descendant` (read from git's exit status: 0 yes, 1 no). */
  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    const { code } = await runGit(this.dir, ["merge-base", "--is-ancestor", ancestor, descendant]);
    if (code === 0) return true;
    if (code === 1) return false;
    throw new ScmError("unavailable", `git merge-base failed (exit ${code}) in ${this.dir}`);
  }


  /** The commit both branches grew from; null when they share no history. */
  async mergeBase(a: string, b: string): Promise<string | null> {
    const run = await runGit(this.dir, ["merge-base", a, b]);
    return run.code === 0 ? run.stdout.toString().trim() || null : null;
  }

  /**
   * Files changed from `base` to `head`, each with its unified hunks as git prints them (from the first
   * "@@" line; "" for a binary file), renames detected. The shape of GitLab's merge request diffs.
   */
  async diffFiles(base: string, head: string): Promise<ScmFileDiff[]> {
    const names = (await this.raw(["diff", "--no-color", "--no-ext-diff", "--name-status", "-M", "-z", base, head])).split("\0");
    const files: ScmFileDiff[] = [];
    for (let i = 0; i < names.length - 1; ) {
      const status = names[i++];
      if (!status) continue;
      const renamed = status.startsWith("R") || status.startsWith("C");
      const oldPath = names[i++];
      const newPath = renamed ? names[i++] : oldPath;
      const patch = await this.raw(["diff", "--no-color", "--no-ext-diff", "-M", base, head, "--", ...(renamed ? [oldPath, newPath] : [newPath])]);
      const at = patch.indexOf("\n@@");
      files.push({ oldPath, newPath, newFile: status === "A", deletedFile: status === "D", diff: at >= 0 ? patch.slice(at + 1) : "" });
    }
    return files;
  }

  /**
   * The tree merging source into target would make, without writing a commit; null with the conflicted
   * files when it conflicts.
   */
  private async mergeTree(target: string, source: string): Promise<{ tree: string | null; conflicted: string[] }> {
    // Exit status 1 with conflicts (the tree, then the conflicted files); anything else is a failure.
    const run = await runGit(this.dir, ["merge-tree", "--write-tree", "--no-messages", "--name-only", target, source]);
    if (run.code !== 0 && run.code !== 1) throw new ScmError("unavailable", `git merge-tree failed: ${run.stderr.trim()}`);
    const lines = run.stdout.toString().trim().split("\n").filter(Boolean);
    const tree = lines[0] ?? "";
    if (!/^[0-9a-f]{40}$/.test(tree) || lines.length > 1) return { tree: null, conflicted: [...new Set(lines.slice(1))] };
    return { tree, conflicted: [] };
  }

  /** True when merging source into target would conflict (the check `merge` makes). */
  async conflicts(target: string, source: string): Promise<boolean> {
    return (await this.mergeTree(target, source)).tree === null;
  }

  /**
   * Merges source into target with a merge commit; throws ScmError conflict on conflicts. Idempotent:
   * a source already contained in the target makes no commit and answers the commit that brought it
   * in (created false). Answers the merge commit.
   */
  async merge(options: { target: string; source: string; message: string; author?: ScmAuthor }): Promise<{ sha: string; created: boolean }> {
    const targetSha = await this.branchSha(options.target);
    const sourceSha = await this.branchSha(options.source);
    if (!targetSha) throw new ScmError("not_found", `branch ${options.target} does not exist`);
    if (!sourceSha) throw new ScmError("not_found", `branch ${options.source} does not exist`);
    const existing = await this.mergeCommitOf(sourceSha, targetSha);
    if (existing) return { sha: existing, created: false };
    const { tree, conflicted } = await this.mergeTree(targetSha, sourceSha);
    if (tree === null) {
      const files = conflicted.slice(0, 5).join(", ");
      throw new ScmError("conflict", `the merge request has conflicts with ${options.target}${files ? ` (${files})` : ""}; resolve them first`);
    }
    const sha = (await this.raw(["commit-tree", tree, "-p", targetSha, "-p", sourceSha, "-m", options.message], identityEnv(options.author))).trim();
    await this.updateRef(`refs/heads/${options.target}`, sha, targetSha);
    return { sha, created: true };
  }

  async listTags(): Promise<ScmTag[]> {
    const out = await this.raw([
      "for-each-ref",
      "refs/tags",
      "--sort=-creatordate",
      "--format=%(refname:short)%1f%(objecttype)%1f%(objectname)%1f%(*objectname)%1f%(creatordate:iso-strict)%1f%(contents)%1e",
    ]);
    return out
      .split("\x1e")
      .map((r) => r.replace(/^\n/, ""))
      .filter((r) => r.includes("\x1f"))
      .map((r) => {
        const [name, type, obj, peeled, date, contents] = r.split("\x1f");
        const annotated = type === "tag";
        return {
          name,
          commitSha: annotated ? peeled : obj,
          message: annotated ? contents.trim() || null : null,
          createdAt: date ? new Date(date).toISOString() : null,
        };
      });
  }

  async createTag(name: string, sha: string, message: string, author?: ScmAuthor): Promise<void> {
    await this.raw(["tag", "-a", name, sha, "-m", message], identityEnv(author));
  }

  async authors(limit = 200): Promise<Array<{ name: string; email: string }>> {
    try {
      const out = await this.raw(["log", "--all", `-n${limit}`, "--format=%an%x1f%ae"]);
      const seen = new Map<string, { name: string; email: string }>();
      for (const line of out.split("\n").filter(Boolean)) {
        const [name, email] = line.split("\x1f");
        if (!seen.has(email)) seen.set(email, { name, email });
      }
      return [...seen.values()];
    } catch {
      return [];
    }
  }

  async lastActivity(): Promise<string | null> {
    try {
      const out = (await this.raw(["log", "--all", "-n1", "--format=%cI"])).trim();
      return out ? new Date(out).toISOString() : null;
    } catch {
      return null;
    }
  }

  async description(): Promise<string | null> {
    const d = await import("node:fs/promises").then((fs) => fs.readFile(path.join(this.dir, "description"), "utf8")).catch(() => "");
    const text = d.trim();
    return text && !text.startsWith("Unnamed repository") ? text : null;
  }
}

function parseLongListing(out: string): TreeEntryLong[] {
  const entries: TreeEntryLong[] = [];
  for (const line of out.split("\0")) {
    if (!line) continue;
    const tab = line.indexOf("\t");
    const [mode, type, sha, size] = line.slice(0, tab).split(/ +/);
    if (type !== "blob" && type !== "tree" && type !== "commit") continue;
    entries.push({ mode, type, sha, size: size === "-" || size === undefined ? null : Number(size), path: line.slice(tab + 1) });
  }
  return entries;
}
