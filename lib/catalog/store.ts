// Over 400 lines on purpose: the config repository's one writer; its compare-and-swap publish, push rollback and recovery share one lock and one set of invariants.
/**
 * The one writer of the config repository, and its reader of committed content.
 *
 * Every change (a catalog edit, a persistent-config commit, an import, a merge of a merge request
 * through the local provider) becomes a commit built with git plumbing on a private index
 * (lib/scm/git.ts: hash-object, update-index, write-tree, commit-tree) and is published by moving the
 * branch with `update-ref <ref> <new> <old>`: a compare-and-swap, so a crash at any instant leaves the
 * branch at the old commit or the new one, and a writer that lost a race (another process) rebuilds
 * its change on the new head. With a remote the new commit is pushed; a refused push moves the branch
 * back (again by compare-and-swap) and answers a conflict. The working tree is only a mirror of the
 * branch for people looking at the folder: it is reset after each change and at start, and nothing is
 * ever read from it: the catalog and the config views read the commit (ls-tree + cat-file --batch).
 *
 * Recovery (once per process, before the first read or write): stale lock files of git (index.lock,
 * ref locks) are removed when no git process still working in the repository can hold them, the working tree
 * is reset to the branch (and untracked files removed), and with a remote a branch left ahead of it by
 * a crash before the push is pushed or, when the remote refuses, dropped (it was never acknowledged).
 */
import "server-only";
import { readdir, readlink, readFile, rm, stat } from "node:fs/promises";
import type { Dirent } from "node:fs";
import path from "node:path";
import { Mutex } from "../mutex";
import { authorString, type ConfigRepo } from "./repo";
import { RefMovedError, RepoGit, SYMLINK_MODE, type TreeEntryLong } from "../scm/git";
import { ScmError, checkFilePath, type ScmAuthor, type ScmFileChange } from "../scm/types";

export interface RecoveryReport {
  /** Lock files removed (relative to the git directory). */
  removedLocks: string[];
  /** Lock files left because a git process was still working in the repository. */
  keptLocks: string[];
  /** True when the working tree had to be reset (it differed from the branch). */
  resetWorkingTree: boolean;
  /** What happened with the remote, when there is one. */
  remote?: string;
}

/** What a reader sees of one path at a commit. */
export type CommittedEntry =
  | { kind: "file"; sha: string; size: number; mode: string }
  | { kind: "symlink"; sha: string; target: string }
  | { kind: "other"; type: string };

/** A change to write: the files, the message and who wrote it. */
export interface ChangePlan {
  files: ScmFileChange[];
  message: string;
  author: { id: string; name: string; email?: string };
}

/** A view of the branch at one commit, for building a change. */
export interface Snapshot {
  head: string | null;
  /** Text of a regular file at head; null when absent; throws ScmError invalid for a symbolic link. */
  readText(filePath: string): Promise<string | null>;
}

const MAX_ATTEMPTS = 16;
/** Loose objects beyond which the start packs them (in the background): reading thousands of loose objects is slow. */
const REPACK_LOOSE_OBJECTS = 2000;
const LOCK_WAIT_MS = 10_000;

export function identityOf(author: { id: string; name: string; email?: string }): ScmAuthor {
  const s = authorString(author);
  const m = /^(.*) <(.*)>$/.exec(s);
  return m ? { name: m[1], email: m[2] } : { name: author.name || author.id, email: `${author.id}@users.portal.invalid` };
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split("\n").map((l) => l.trim()).filter(Boolean)[0] ?? "failed";
}

/** A git process working in the repository, and when it started (ms since the epoch). */
interface GitProcess {
  pid: number;
  startedAt: number;
}

let bootTimeMs: number | null = null;
const CLOCK_TICKS_PER_SECOND = 100;

/** Git processes whose working directory is inside `dir` (Linux /proc; [] elsewhere, where locks are judged by age alone). */
async function gitProcessesIn(dir: string): Promise<GitProcess[]> {
  let pids: string[];
  try {
    pids = (await readdir("/proc")).filter((p) => /^\d+$/.test(p));
    bootTimeMs ??= Number(/^btime (\d+)$/m.exec(await readFile("/proc/stat", "utf8"))?.[1] ?? 0) * 1000;
  } catch {
    return [];
  }
  const found: GitProcess[] = [];
  const root = path.resolve(dir);
  for (const pid of pids) {
    try {
      const comm = (await readFile(`/proc/${pid}/comm`, "utf8")).trim();
      if (!comm.startsWith("git")) continue;
      const cwd = await readlink(`/proc/${pid}/cwd`);
      if (cwd !== root && !cwd.startsWith(root + path.sep)) continue;
      // Field 22 of stat (after the parenthesised command name) is the start time in clock ticks since boot.
      const stat = await readFile(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      found.push({ pid: Number(pid), startedAt: bootTimeMs + (Number(fields[19]) * 1000) / CLOCK_TICKS_PER_SECOND });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Lock files of git that can block this repository's writer or its working tree (relative to the git directory). */
async function findLocks(gitDir: string): Promise<Array<{ file: string; mtimeMs: number }>> {
  const found: Array<{ file: string; mtimeMs: number }> = [];
  const consider = async (rel: string) => {
    const s = await stat(path.join(gitDir, rel)).catch(() => null);
    if (s?.isFile()) found.push({ file: rel, mtimeMs: s.mtimeMs });
  };
  for (const name of ["index.lock", "HEAD.lock", "ORIG_HEAD.lock", "packed-refs.lock", "config.lock", "shallow.lock"]) await consider(name);
  const walk = async (rel: string) => {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(gitDir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(child);
      else if (e.name.endsWith(".lock")) await consider(child);
    }
  };
  await walk("refs");
  return found.sort((a, b) => (a.file < b.file ? -1 : 1));
}

/** What pull() did: `moved` when the served branch now points at another commit than before. */
export interface PullOutcome {
  ok: boolean;
  moved: boolean;
  message: string;
}

export class ConfigRepoStore {
  readonly repo: ConfigRepo;
  /** Plumbing over the repository; moving a ref goes through advance(). */
  readonly git: RepoGit;
  /** One writer at a time in this process (other processes are kept out by the compare-and-swap). */
  readonly mutex = new Mutex();
  private branchName: string | null = null;
  private recovery: Promise<RecoveryReport> | null = null;
  private syncedHead: string | null = null;
  private readonly publishedListeners = new Set<(commit: string) => void>();

  constructor(repo: ConfigRepo) {
    this.repo = repo;
    this.git = new RepoGit(repo.dir, { updateRef: (ref, sha, expected) => this.advance(ref, sha, expected), scratchDir: this.scratchDir });
  }

  get gitDir(): string {
    return path.join(this.repo.dir, ".git");
  }

  /** Private indexes of commits being built (inside the git directory, so recovery finds what a crash left). */
  get scratchDir(): string {
    return path.join(this.gitDir, "portal-scratch");
  }

  /**
   * Tells `listener` each commit this process published on the served branch: a change it committed (and
   * pushed, with a remote), or a pull that moved the branch to what the remote holds. Other instances
   * follow these (lib/portal/catalog-following.ts). Answers the function that stops telling.
   */
  onPublished(listener: (commit: string) => void): () => void {
    this.publishedListeners.add(listener);
    return () => this.publishedListeners.delete(listener);
  }

  private published(commit: string): void {
    for (const listener of this.publishedListeners) {
      try {
        listener(commit);
      } catch (e) {
        console.error(`[catalog] a listener of published commits failed: ${firstLine(e)}`);
      }
    }
  }

  /** Runs fn as this repository's only writer in this process, after recovery (once per process). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.mutex.run(async () => {
      await this.recoverOnce();
      return fn();
    });
  }

  /** The branch the working copy serves (main). */
  async branch(): Promise<string> {
    this.branchName ??= await this.git.defaultBranch();
    return this.branchName;
  }

  private async servedRef(): Promise<string> {
    return `refs/heads/${await this.branch()}`;
  }

  /** The commit of the served branch (null in an empty repository). */
  async head(): Promise<string | null> {
    return this.git.branchSha(await this.branch());
  }

  // ---- reading committed content ----

  /** Describes what `filePath` is at `commit`: a regular file, a symbolic link, something else, or null. */
  async entryAt(commit: string, filePath: string): Promise<CommittedEntry | null> {
    const e = await this.git.entryAt(commit, filePath);
    return e ? await this.describe(e) : null;
  }

  private async describe(e: TreeEntryLong): Promise<CommittedEntry> {
    if (e.type === "blob" && e.mode === SYMLINK_MODE) {
      const target = (await this.git.readBlobs([e.sha])).get(e.sha)?.toString("utf8") ?? "";
      return { kind: "symlink", sha: e.sha, target };
    }
    if (e.type === "blob") return { kind: "file", sha: e.sha, size: e.size ?? 0, mode: e.mode };
    return { kind: "other", type: e.type };
  }

  /**
   * Text of a regular file at `commit` (HEAD of the branch by default): null when it does not exist;
   * a symbolic link is refused (ScmError invalid): nothing is ever read through a link.
   */
  async readText(filePath: string, commit?: string | null): Promise<string | null> {
    checkFilePath(filePath);
    const at = commit === undefined ? await this.head() : commit;
    if (!at) return null;
    const entry = await this.entryAt(at, filePath);
    if (!entry) return null;
    if (entry.kind === "symlink") throw new ScmError("invalid", `${filePath} is a symbolic link (to ${entry.target}); the portal reads regular files only`);
    if (entry.kind !== "file") return null;
    const blob = (await this.git.readBlobs([entry.sha])).get(entry.sha);
    return blob ? blob.toString("utf8") : null;
  }

  /** Entries directly inside `dir` ("" = the root) at `commit`, with modes and sizes. */
  listDir(commit: string, dir: string): Promise<TreeEntryLong[]> {
    return this.git.listTreeLong(commit, dir || undefined);
  }

  /** Entries at exactly these paths at `commit` (absent ones left out). */
  listPaths(commit: string, paths: string[]): Promise<TreeEntryLong[]> {
    return this.git.listPathsLong(commit, paths);
  }

  readBlobs(shas: string[]): Promise<Map<string, Buffer>> {
    return this.git.readBlobs(shas);
  }

  /** Each blob as git prints it (see RepoGit.eachBlob). */
  eachBlob(shas: string[], onBlob: (sha: string, data: Buffer) => void): Promise<void> {
    return this.git.eachBlob(shas, onBlob);
  }

  // ---- writing ----

  /**
   * Builds a change on the branch's current head and commits it (call inside exclusive()). When
   * another writer moved the branch meanwhile, the change is built again on the new head. `build`
   * answers null to write nothing. Answers the new commit (null when nothing was written) and the value.
   */
  async write<T>(build: (base: Snapshot) => Promise<{ plan: ChangePlan | null; value: T }>): Promise<{ commit: string | null; value: T }> {
    const branch = await this.branch();
    for (let attempt = 1; ; attempt++) {
      const head = await this.head();
      const snapshot: Snapshot = { head, readText: (p) => this.readText(p, head) };
      const { plan, value } = await build(snapshot);
      if (!plan || plan.files.length === 0) return { commit: null, value };
      try {
        const commit = await this.git.commitFiles({
          branch,
          parent: head,
          branchExists: head !== null,
          files: plan.files,
          message: plan.message,
          author: identityOf(plan.author),
        });
        return { commit, value };
      } catch (e) {
        if (!(e instanceof RefMovedError) || attempt >= MAX_ATTEMPTS) throw e;
        // Moved: build again on the new head. Locked (another process is moving it right now): a moment later.
        if ((await this.head()) === head) await new Promise((r) => setTimeout(r, 25 * attempt));
        // Another instance published first: a random pause, so two instances writing at once do not keep
        // refusing each other in step.
        else if (this.repo.remote) await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));
      }
    }
  }

  /**
   * Moves `ref` from `expected` to `sha` (the one path by which any ref of the config repository
   * moves). For the served branch it also publishes: push to the remote (a refusal moves the branch
   * back and answers a conflict), then brings the working tree along.
   */
  async advance(ref: string, sha: string, expected: string | null): Promise<void> {
    await this.git.casRef(ref, sha, expected);
    if (ref !== (await this.servedRef())) return;
    if (this.repo.remote) {
      try {
        await this.push(sha);
      } catch (e) {
        const back = expected ? this.git.casRef(ref, expected, sha) : this.git.casDeleteRef(ref, sha);
        await back.catch((err: unknown) => console.error(`[catalog] could not move ${ref} back after a refused push: ${firstLine(err)}`));
        // Usually another instance published first: take what the remote holds, so that a writer
        // (write()) builds its change again on it instead of answering a conflict.
        const pulled = await this.pull({ quiet: true });
        if (pulled.ok && pulled.moved) throw new RefMovedError(ref, `the remote moved on: ${firstLine(e)}`);
        throw new ScmError("conflict", `the remote refused the change: ${firstLine(e)}`);
      }
    }
    await this.syncWorkingTree();
    this.published(sha);
  }

  private async push(sha: string): Promise<void> {
    await this.repo.git.raw(["push", "--quiet", "origin", `${sha}:refs/heads/${await this.branch()}`]);
  }

  /**
   * Makes the working tree equal to the branch (tracked files reset, untracked files removed). Best
   * effort: nothing reads the working tree, so a failure is logged and retried on the next change.
   */
  async syncWorkingTree(options: { force?: boolean } = {}): Promise<boolean> {
    const head = await this.head();
    if (!options.force && head === this.syncedHead) return false;
    try {
      await this.git.raw(["reset", "--hard", "--quiet"]);
      // Nothing of ours writes untracked files; clean them only when recovering.
      if (options.force) await this.git.raw(["clean", "-d", "--force", "--quiet"]);
      this.syncedHead = head;
      return true;
    } catch (e) {
      console.error(`[catalog] the working tree of ${this.repo.dir} could not be reset to ${head ?? "the branch"}: ${firstLine(e)}`);
      return false;
    }
  }

  /**
   * With a remote: fetches it and lines the branch up with it (fast-forward; a local commit the remote
   * never took, left by a crash before the push, is pushed, or dropped when the remote refuses it).
   * Call inside exclusive().
   */
  async pull(options: { quiet?: boolean } = {}): Promise<PullOutcome> {
    if (!this.repo.remote) return { ok: true, moved: false, message: "no remote" };
    const branch = await this.branch();
    try {
      await this.repo.git.raw(["fetch", "--quiet", "origin", `+refs/heads/${branch}:refs/remotes/origin/${branch}`]);
    } catch (e) {
      return { ok: false, moved: false, message: `pull failed, showing the local copy: ${firstLine(e)}` };
    }
    const remote = await this.git.resolve(`refs/remotes/origin/${branch}`);
    const local = await this.head();
    if (!remote || remote === local) return { ok: true, moved: false, message: "0 files changed" };
    const ref = await this.servedRef();
    const changed = async (from: string | null, to: string) =>
      from ? (await this.git.raw(["diff", "--name-only", from, to]).catch(() => "")).split("\n").filter(Boolean).length : 0;
    // A pull that others follow (quiet) does not announce what they announced already.
    const announce = (commit: string) => {
      if (!options.quiet) this.published(commit);
    };
    try {
      if (local && (await this.git.isAncestor(remote, local))) {
        // Ahead: a change committed here whose push never happened (the process died in between).
        try {
          await this.push(local);
          announce(local);
          return { ok: true, moved: false, message: "pushed a local change the remote did not have yet" };
        } catch {
          await this.git.casRef(ref, remote, local);
          await this.syncWorkingTree();
          return { ok: true, moved: true, message: "dropped a local change the remote refused" };
        }
      }
      const n = await changed(local, remote);
      await this.git.casRef(ref, remote, local);
      await this.syncWorkingTree();
      announce(remote);
      return { ok: true, moved: true, message: `${n} files changed` };
    } catch (e) {
      return { ok: false, moved: false, message: `pull failed, showing the local copy: ${firstLine(e)}` };
    }
  }

  // ---- recovery ----

  /** Recovery once per process (and per store), before the first read or write; answers what it did. */
  ensureRecovered(): Promise<RecoveryReport> {
    return this.exclusive(() => this.recoverOnce());
  }

  /** Call with the mutex held. A failed recovery is tried again by the next caller. */
  private recoverOnce(): Promise<RecoveryReport> {
    if (!this.recovery) {
      const running = this.recover();
      running.catch(() => {
        if (this.recovery === running) this.recovery = null;
      });
      this.recovery = running;
    }
    return this.recovery;
  }

  /** Removes stale locks, resets the working tree to the branch, lines the branch up with a remote. */
  private async recover(): Promise<RecoveryReport> {
    const report: RecoveryReport = { removedLocks: [], keptLocks: [], resetWorkingTree: false };
    // A lock can only be held by a git process that started before the lock was made; one made before
    // every git process still working here started is stale (its process died). For a lock a live
    // process may hold, wait a little for that process to end.
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (const lock of await findLocks(this.gitDir)) {
      const mayHold = async () => (await gitProcessesIn(this.repo.dir)).filter((p) => p.startedAt <= lock.mtimeMs + 1000);
      while ((await mayHold()).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      if ((await mayHold()).length > 0) {
        report.keptLocks.push(lock.file);
        continue;
      }
      await rm(path.join(this.gitDir, lock.file), { force: true });
      report.removedLocks.push(lock.file);
    }
    // Private indexes of commits a dead process was building (same rule: older than every live git process).
    const live = await gitProcessesIn(this.repo.dir);
    for (const name of await readdir(this.scratchDir).catch(() => [] as string[])) {
      const s = await stat(path.join(this.scratchDir, name)).catch(() => null);
      if (s && live.every((p) => p.startedAt > s.mtimeMs + 1000)) await rm(path.join(this.scratchDir, name), { recursive: true, force: true });
    }
    if (report.removedLocks.length > 0) console.warn(`[catalog] removed stale git locks in ${this.repo.dir}: ${report.removedLocks.join(", ")}`);
    if (report.keptLocks.length > 0) console.warn(`[catalog] git is still working in ${this.repo.dir}; kept ${report.keptLocks.join(", ")}`);
    const dirty = (await this.git.raw(["status", "--porcelain", "--untracked-files=all"]).catch(() => "dirty")).trim() !== "";
    if (dirty) {
      report.resetWorkingTree = await this.syncWorkingTree({ force: true });
      if (report.resetWorkingTree) console.warn(`[catalog] reset the working tree of ${this.repo.dir} to the committed content`);
    } else this.syncedHead = await this.head();
    if (this.repo.remote) {
      const local = await this.head();
      const remote = await this.git.resolve(`refs/remotes/origin/${await this.branch()}`);
      if (local && remote && local !== remote && (await this.git.isAncestor(remote, local))) report.remote = (await this.pull()).message;
    }
    void this.packLooseObjects();
    return report;
  }

  /**
   * Commits made with plumbing never trigger git's automatic housekeeping: pack the loose objects
   * when there are many. In the background (repack runs safely beside writers; it moves no ref).
   */
  private async packLooseObjects(): Promise<void> {
    try {
      const counts = await this.git.raw(["count-objects", "-v"]);
      const loose = Number(/^count: (\d+)$/m.exec(counts)?.[1] ?? 0);
      if (loose < REPACK_LOOSE_OBJECTS) return;
      await this.git.raw(["repack", "-d", "-q"]);
    } catch (e) {
      console.error(`[catalog] packing the objects of ${this.repo.dir} failed: ${firstLine(e)}`);
    }
  }
}
