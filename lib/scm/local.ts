/**
 * The `local` provider (embedded default): bare repositories under <root>/<group>/<project>,
 * merge requests as a branch plus a record (MergeRequestStore), merges and tags with real git.
 * Every git process of a repository runs behind that repository's lock, so requests arriving
 * together never run two git processes on one repository.
 *
 * A working copy (the config repository) can be registered under a path of its own: reads go
 * straight to its git objects; writes run inside the owner's exclusive() (the catalog's write lock)
 * and move refs through the owner's updateRef() (the repository's one writer, which publishes the
 * served branch and keeps the working tree in step), then call afterChange(). Nothing here touches
 * the working tree.
 *
 * Merges are idempotent: a merge request whose source branch is already contained in its target is
 * merged (recorded with the commit that brought it in) and no second merge commit is ever made. A
 * record still "opened" although its branch is in the target (a merge whose record was never written,
 * e.g. the process died in between) is brought up to date when it is read.
 */
import "server-only";
import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { RepoGit, type RefUpdater } from "./git";
import { KeyedMutex } from "../mutex";
import type { MergeRequestStore, MergeRequestRecord } from "./merge-request-store";
import {
  ScmError,
  checkBranch,
  checkFilePath,
  checkRepoPath,
  type MergeRequestState,
  type ScmCommit,
  type ScmCommitInput,
  type ScmMember,
  type ScmMergeRequest,
  type ScmMergeRequestDiff,
  type ScmOpenMergeRequest,
  type ScmOwner,
  type ScmPage,
  type ScmProvider,
  type ScmRelease,
  type ScmRepository,
  type ScmTag,
  type ScmTreeEntry,
} from "./types";

export interface WorkingCopy {
  dir: string;
  exclusive?: <T>(fn: () => Promise<T>) => Promise<T>;
  afterChange?: () => Promise<void>;
  /** Moves a ref of the working copy (called inside exclusive()); by default a compare-and-swap. */
  updateRef?: RefUpdater;
}

export interface LocalScmOptions {
  /** Folder of the bare repositories (DATA_DIR/repos). */
  root: string;
  store: MergeRequestStore;
  workingCopies?: Record<string, WorkingCopy>;
  /** Base of links to merge requests and repositories shown to users; null = no links. */
  webBaseUrl?: string | null;
}

const MAX_DEPTH = 4;

async function isDir(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

async function isBareRepo(dir: string): Promise<boolean> {
  return (await isDir(path.join(dir, "objects"))) && (await isDir(path.join(dir, "refs"))) && (await stat(path.join(dir, "HEAD")).then(() => true, () => false));
}

export class LocalScmProvider implements ScmProvider {
  readonly kind = "local" as const;
  readonly root: string;
  private readonly store: MergeRequestStore;
  private readonly locks = new KeyedMutex();
  private readonly workingCopies: Record<string, WorkingCopy>;
  private readonly webBaseUrl: string | null;

  constructor(options: LocalScmOptions) {
    this.root = path.resolve(options.root);
    this.store = options.store;
    this.workingCopies = options.workingCopies ?? {};
    this.webBaseUrl = options.webBaseUrl ?? null;
  }

  private dirOf(repo: string): string {
    checkRepoPath(repo);
    const wc = this.workingCopies[repo];
    if (wc) return wc.dir;
    const dir = path.join(this.root, ...repo.split("/"));
    if (!dir.startsWith(this.root + path.sep)) throw new ScmError("invalid", `"${repo}" is not a repository path`);
    return dir;
  }

  private async existing(repo: string): Promise<RepoGit> {
    const dir = this.dirOf(repo);
    const wc = this.workingCopies[repo];
    if (wc) return new RepoGit(dir, { updateRef: wc.updateRef });
    if (!(await isBareRepo(dir))) throw new ScmError("not_found", `repository ${repo} not found`);
    return new RepoGit(dir);
  }

  /** Runs fn with the repository's lock (and the working copy's exclusive section when it has one). */
  private withRepo<T>(repo: string, fn: (git: RepoGit) => Promise<T>, options: { write?: boolean } = {}): Promise<T> {
    const wc = this.workingCopies[repo];
    const locked = () => this.locks.run(repo, async () => fn(await this.existing(repo)));
    if (wc && options.write && wc.exclusive) return wc.exclusive(locked);
    return locked();
  }

  private async afterWrite(repo: string): Promise<void> {
    await this.workingCopies[repo]?.afterChange?.();
  }

  // ---- repositories ----

  async createRepository(repo: string, options: { description?: string; defaultBranch?: string } = {}): Promise<ScmRepository> {
    const dir = this.dirOf(repo);
    return this.locks.run(repo, async () => {
      if (!(await isBareRepo(dir))) {
        await mkdir(dir, { recursive: true });
        await RepoGit.initBare(dir, options.defaultBranch ?? "main");
        if (options.description) await writeFile(path.join(dir, "description"), `${options.description}\n`);
      }
      return this.describe(repo, new RepoGit(dir));
    });
  }

  private async describe(repo: string, git: RepoGit): Promise<ScmRepository> {
    const parts = repo.split("/");
    return {
      path: repo,
      name: parts[parts.length - 1],
      owner: parts.slice(0, -1).join("/"),
      description: await git.description(),
      defaultBranch: await git.defaultBranch(),
      webUrl: this.webBaseUrl ? `${this.webBaseUrl}/${repo}` : null,
      lastActivityAt: await git.lastActivity(),
    };
  }

  private async allRepositoryPaths(): Promise<string[]> {
    const found: string[] = [];
    const walk = async (dir: string, rel: string[]) => {
      if (rel.length >= 2 && (await isBareRepo(dir))) {
        found.push(rel.join("/"));
        return;
      }
      if (rel.length >= MAX_DEPTH) return;
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return;
      }
      for (const n of names.sort()) {
        if (n.startsWith(".")) continue;
        const child = path.join(dir, n);
        if (await isDir(child)) await walk(child, [...rel, n]);
      }
    };
    await walk(this.root, []);
    return found.sort();
  }

  async listOwners(): Promise<ScmOwner[]> {
    const owners = new Set<string>();
    for (const p of await this.allRepositoryPaths()) owners.add(p.split("/").slice(0, -1).join("/"));
    return [...owners].sort().map((p) => ({ path: p, name: p.split("/").pop() ?? p, kind: "group" as const }));
  }

  async listRepositories(options: { owner?: string; search?: string; page?: number; perPage?: number } = {}): Promise<ScmPage<ScmRepository>> {
    const page = Math.max(1, Math.floor(options.page ?? 1));
    const perPage = Math.min(100, Math.max(1, Math.floor(options.perPage ?? 20)));
    const search = options.search?.toLowerCase();
    const paths = (await this.allRepositoryPaths()).filter(
      (p) => (!options.owner || p.startsWith(`${options.owner}/`)) && (!search || p.toLowerCase().includes(search)),
    );
    const slice = paths.slice((page - 1) * perPage, page * perPage);
    const items: ScmRepository[] = [];
    for (const p of slice) items.push(await this.locks.run(p, () => this.describe(p, new RepoGit(this.dirOf(p)))));
    return { items, nextPage: page * perPage < paths.length ? page + 1 : null };
  }

  /** Whether `repo` exists, without starting git (a caller that asks before every request). */
  async hasRepository(repo: string): Promise<boolean> {
    try {
      return this.workingCopies[repo] !== undefined || (await isBareRepo(this.dirOf(repo)));
    } catch {
      return false;
    }
  }

  async getRepository(repo: string): Promise<ScmRepository | null> {
    try {
      return await this.withRepo(repo, (git) => this.describe(repo, git));
    } catch (e) {
      if (e instanceof ScmError && e.code === "not_found") return null;
      throw e;
    }
  }

  async listMembers(repo: string): Promise<ScmMember[]> {
    return this.withRepo(repo, async (git) =>
      (await git.authors())
        .filter((a) => a.email !== "portal@localhost")
        .map((a) => ({ username: a.email.split("@")[0], name: a.name, accessLevel: 40 })),
    );
  }

  // ---- files ----

  async readFile(repo: string, filePath: string, ref?: string): Promise<string | null> {
    checkFilePath(filePath);
    return this.withRepo(repo, async (git) => git.readFile(ref ?? (await git.defaultBranch()), filePath));
  }

  async listTree(repo: string, options: { ref?: string; path?: string; recursive?: boolean } = {}): Promise<ScmTreeEntry[]> {
    if (options.path) checkFilePath(options.path);
    return this.withRepo(repo, async (git) => git.listTree(options.ref ?? (await git.defaultBranch()), options.path, options.recursive ?? false));
  }

  async resolveRef(repo: string, ref: string): Promise<string | null> {
    return this.withRepo(repo, (git) => git.resolve(ref));
  }

  async commitFiles(repo: string, input: ScmCommitInput): Promise<ScmCommit> {
    checkBranch(input.branch);
    if (input.files.length === 0) throw new ScmError("invalid", "a commit needs at least one file");
    for (const f of input.files) checkFilePath(f.path);
    const result = await this.withRepo(
      repo,
      async (git) => {
        let parent = await git.branchSha(input.branch);
        const branchExists = parent !== null;
        if (!parent) {
          const start = input.startBranch ?? (await git.defaultBranch());
          parent = await git.branchSha(start);
          if (!parent && input.startBranch) throw new ScmError("not_found", `branch ${input.startBranch} does not exist`);
        }
        for (const f of input.files) {
          if (f.content === null && (!parent || (await git.readFile(parent, f.path)) === null)) {
            throw new ScmError("invalid", `cannot delete ${f.path}: it does not exist`);
          }
        }
        const sha = await git.commitFiles({ branch: input.branch, parent, branchExists, files: input.files, message: input.message, author: input.author });
        return { sha, branch: input.branch };
      },
      { write: true },
    );
    await this.afterWrite(repo);
    return result;
  }

  // ---- merge requests ----

  private toMergeRequest(r: MergeRequestRecord, hasConflicts = false): ScmMergeRequest {
    const { mergeability: _checked, ...record } = r;
    return { ...record, hasConflicts, webUrl: this.webBaseUrl ? `${this.webBaseUrl}/${r.repository}/-/merge_requests/${r.iid}` : null };
  }

  /**
   * Whether an open request conflicts with its target, for these two commits: the verdict kept with the record
   * when it was made for them (by any process), else `git merge-tree` once, kept for the next reader.
   */
  private async conflictsOf(repo: string, git: RepoGit, r: MergeRequestRecord, sourceSha: string, targetSha: string): Promise<boolean> {
    const known = r.mergeability;
    if (known && known.sourceSha === sourceSha && known.targetSha === targetSha) return known.hasConflicts;
    const hasConflicts = await git.conflicts(targetSha, sourceSha);
    await this.store.setMergeability(repo, r.iid, { sourceSha, targetSha, hasConflicts });
    return hasConflicts;
  }

  async openMergeRequest(repo: string, input: ScmOpenMergeRequest): Promise<ScmMergeRequest> {
    checkBranch(input.sourceBranch);
    if (!input.title.trim()) throw new ScmError("invalid", "a merge request needs a title");
    return this.withRepo(repo, async (git) => {
      const target = input.targetBranch ?? (await git.defaultBranch());
      const sourceSha = await git.branchSha(input.sourceBranch);
      if (!sourceSha) throw new ScmError("not_found", `source branch ${input.sourceBranch} does not exist`);
      const targetSha = await git.branchSha(target);
      if (!targetSha) throw new ScmError("not_found", `target branch ${target} does not exist`);
      if (target === input.sourceBranch) throw new ScmError("invalid", "source and target branch are the same");
      const open = await this.store.list(repo, "opened");
      if (open.some((m) => m.sourceBranch === input.sourceBranch && m.targetBranch === target)) {
        throw new ScmError("conflict", `another open merge request already exists for ${input.sourceBranch}`);
      }
      const rec = await this.store.create(repo, {
        title: input.title.trim(),
        description: input.description ?? "",
        sourceBranch: input.sourceBranch,
        targetBranch: target,
        author: input.author ?? "portal",
      });
      return this.toMergeRequest(rec, await this.conflictsOf(repo, git, rec, sourceSha, targetSha));
    });
  }

  /**
   * The records as they are now. Records still "opened" whose source branch is already in the target are
   * marked merged (with the commit that merged them), as GitLab does for a branch merged by push; the others
   * carry whether they still merge cleanly. Both branches' commits come from one read of the refs.
   */
  private async current(repo: string, git: RepoGit, records: MergeRequestRecord[]): Promise<ScmMergeRequest[]> {
    const heads = records.some((r) => r.state === "opened") ? await git.branchShas() : new Map<string, string>();
    const out: ScmMergeRequest[] = [];
    for (const r of records) {
      const source = heads.get(r.sourceBranch);
      const target = heads.get(r.targetBranch);
      if (r.state !== "opened" || !source || !target) {
        out.push(this.toMergeRequest(r));
        continue;
      }
      const mergedBy = await git.mergeCommitOf(source, target);
      if (!mergedBy) {
        out.push(this.toMergeRequest(r, await this.conflictsOf(repo, git, r, source, target)));
        continue;
      }
      const fresh = await this.store.get(repo, r.iid);
      out.push(this.toMergeRequest(fresh && fresh.state === "opened" ? await this.store.update(repo, r.iid, { state: "merged", mergeCommitSha: mergedBy }) : (fresh ?? r)));
    }
    return out;
  }

  async listMergeRequests(repo: string, options: { state?: MergeRequestState | "all" } = {}): Promise<ScmMergeRequest[]> {
    await this.existing(repo);
    const state = options.state ?? "opened";
    const records = await this.store.list(repo, state === "all" ? undefined : state);
    if (!records.some((r) => r.state === "opened")) return records.map((r) => this.toMergeRequest(r));
    const current = await this.withRepo(repo, (git) => this.current(repo, git, records));
    return current.filter((r) => state === "all" || r.state === state);
  }

  async getMergeRequest(repo: string, iid: number): Promise<ScmMergeRequest | null> {
    await this.existing(repo);
    const r = await this.store.get(repo, iid);
    if (!r) return null;
    if (r.state !== "opened") return this.toMergeRequest(r);
    const [current] = await this.withRepo(repo, (git) => this.current(repo, git, [r]));
    return current;
  }

  async getMergeRequestDiff(repo: string, iid: number): Promise<ScmMergeRequestDiff> {
    return this.withRepo(repo, async (git) => {
      const mr = await this.store.get(repo, iid);
      if (!mr) throw new ScmError("not_found", `merge request !${iid} not found in ${repo}`);
      // A merged request shows what its merge brought in; an open or closed one what its branch would bring.
      if (mr.state === "merged" && mr.mergeCommitSha) {
        return { files: await git.diffFiles(`${mr.mergeCommitSha}^1`, mr.mergeCommitSha), hasConflicts: false };
      }
      const source = await git.branchSha(mr.sourceBranch);
      const target = await git.branchSha(mr.targetBranch);
      if (!source || !target) return { files: [], hasConflicts: false };
      const base = (await git.mergeBase(target, source)) ?? target;
      return { files: await git.diffFiles(base, source), hasConflicts: mr.state === "opened" && (await this.conflictsOf(repo, git, mr, source, target)) };
    });
  }

  async mergeMergeRequest(repo: string, iid: number): Promise<ScmMergeRequest> {
    const result = await this.withRepo(
      repo,
      async (git) => {
        const mr = await this.store.get(repo, iid);
        if (!mr) throw new ScmError("not_found", `merge request !${iid} not found in ${repo}`);
        if (mr.state !== "opened") throw new ScmError("not_mergeable", `merge request !${iid} is ${mr.state} and cannot be merged`);
        const { sha } = await git.merge({
          target: mr.targetBranch,
          source: mr.sourceBranch,
          message: `Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'\n\n${mr.title}\n\nSee merge request ${repo}!${iid}`,
        });
        return this.toMergeRequest(await this.store.update(repo, iid, { state: "merged", mergeCommitSha: sha }));
      },
      { write: true },
    );
    await this.afterWrite(repo);
    return result;
  }

  async closeMergeRequest(repo: string, iid: number): Promise<ScmMergeRequest> {
    return this.withRepo(repo, async () => {
      const mr = await this.store.get(repo, iid);
      if (!mr) throw new ScmError("not_found", `merge request !${iid} not found in ${repo}`);
      if (mr.state !== "opened") throw new ScmError("not_mergeable", `merge request !${iid} is already ${mr.state}`);
      return this.toMergeRequest(await this.store.update(repo, iid, { state: "closed" }));
    });
  }

  // ---- tags and releases ----

  async listTags(repo: string): Promise<ScmTag[]> {
    return this.withRepo(repo, (git) => git.listTags());
  }

  async createTag(repo: string, input: { name: string; ref: string; message?: string }): Promise<ScmTag> {
    checkBranch(input.name);
    return this.withRepo(repo, async (git) => {
      const sha = await git.resolve(input.ref);
      if (!sha) throw new ScmError("not_found", `${input.ref} names no commit in ${repo}`);
      if ((await git.listTags()).some((t) => t.name === input.name)) throw new ScmError("conflict", `tag ${input.name} already exists in ${repo}`);
      await git.createTag(input.name, sha, input.message ?? input.name);
      const tag = (await git.listTags()).find((t) => t.name === input.name);
      if (!tag) throw new ScmError("unavailable", `tag ${input.name} was not created`);
      return tag;
    });
  }

  /** Local releases are the annotated tags (message = release notes). */
  async listReleases(repo: string): Promise<ScmRelease[]> {
    return (await this.listTags(repo))
      .filter((t) => t.message !== null)
      .map((t) => ({ tagName: t.name, name: t.name, description: t.message ?? "", commitSha: t.commitSha, createdAt: t.createdAt }));
  }

  async createRelease(repo: string, input: { tagName: string; name?: string; description?: string }): Promise<ScmRelease> {
    const tag = (await this.listTags(repo)).find((t) => t.name === input.tagName);
    if (!tag) throw new ScmError("not_found", `tag ${input.tagName} does not exist in ${repo}`);
    return { tagName: tag.name, name: input.name ?? tag.name, description: input.description ?? tag.message ?? "", commitSha: tag.commitSha, createdAt: tag.createdAt };
  }
}
