/**
 * The `gitlab` provider: GitLab REST v4 through @gitbeaker/rest (typed endpoints, paths URL-encoded,
 * lists paged through GitLab's Link header), over our request handler (./gitlab-requester.ts: retries
 * with Retry-After, RateLimit-Reset pauses, bounded requests, injectable fetch). GitLab's refusals
 * become ScmError in one place (scmErrorOf); merge answers 405 / 406 / 409 / 422 get messages a person
 * can act on. Responses are read as GitLab sends them (snake_case), with the fields below.
 */
import "server-only";
import { Gitlab } from "@gitbeaker/rest";
import { GitbeakerRequestError, GitbeakerTimeoutError } from "@gitbeaker/requester-utils";
import { gitlabRequester } from "./gitlab-requester";
import {
  ScmError,
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

export interface GitLabOptions {
  /** e.g. https://gitlab.com (without /api/v4). */
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  /** Longest wait for Retry-After or RateLimit-Reset (default 60 s). */
  maxWaitMs?: number;
  /** Retries of one request after 429 or 502/503/504 (default 3). */
  maxRetries?: number;
  sleep?: (ms: number) => Promise<void>;
  timeoutMs?: number;
}

/* GitLab shapes (the fields we read). */
interface GlNamespace {
  id: number;
  name: string;
  path: string;
  full_path: string;
  kind: "group" | "user";
}
interface GlProject {
  id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  description: string | null;
  default_branch: string | null;
  web_url: string;
  last_activity_at?: string;
}
interface GlMergeRequest {
  iid: number;
  title: string;
  description: string | null;
  state: string;
  source_branch: string;
  target_branch: string;
  author: { username: string } | null;
  web_url: string;
  created_at: string;
  updated_at: string;
  merged_at: string | null;
  merge_commit_sha: string | null;
  has_conflicts?: boolean;
  merge_status?: string;
  detailed_merge_status?: string;
}
interface GlDiff {
  old_path: string;
  new_path: string;
  new_file: boolean;
  deleted_file: boolean;
  diff: string;
}
interface GlTag {
  name: string;
  message: string | null;
  commit: { id: string; created_at?: string };
  created_at?: string | null;
}
interface GlRelease {
  tag_name: string;
  name: string;
  description: string | null;
  created_at: string | null;
  commit?: { id: string };
}

/** Most pages one list reads (100 items each). */
const MAX_PAGES = 20;

/** The HTTP status of a refused request, or null for anything else. */
function statusOf(e: unknown): number | null {
  return e instanceof GitbeakerRequestError && e.cause?.response ? e.cause.response.status : null;
}

/** GitLab's refusal of `what` as an ScmError (an ScmError from the requester passes through). */
export function scmErrorOf(e: unknown, what: string): ScmError {
  if (e instanceof ScmError) return e;
  if (e instanceof GitbeakerTimeoutError) return new ScmError("unavailable", `GitLab did not answer in time while ${what}`);
  const status = statusOf(e);
  const detail = e instanceof GitbeakerRequestError ? (e.cause?.description ?? e.message).slice(0, 300) : (e as Error).message;
  switch (status) {
    case null:
      return new ScmError("unavailable", `GitLab failed while ${what}: ${detail}`);
    case 401:
      return new ScmError("unauthorized", `GitLab refused the portal's token (401) while ${what}`, 401);
    case 403:
      return new ScmError("forbidden", `GitLab forbids ${what} (403): ${detail}`, 403);
    case 404:
      return new ScmError("not_found", `not found on GitLab while ${what}`, 404);
    case 409:
      return new ScmError("conflict", `conflict while ${what}: ${detail}`, 409);
    case 429:
      return new ScmError("rate_limited", "GitLab rate limit reached; try again later", 429);
    case 400:
    case 422:
      return new ScmError("invalid", `GitLab refused ${what}: ${detail}`, status);
    default:
      return new ScmError("unavailable", `GitLab answered ${status} while ${what}: ${detail}`, status);
  }
}

/**
 * Whether GitLab's last mergeability check of a request found conflicts. GitLab checks asynchronously:
 * `has_conflicts` is true only once `merge_status` is cannot_be_merged, so a request being rechecked after
 * such a verdict (cannot_be_merged_recheck) still counts as conflicting, and an unchecked one as clean.
 */
export function conflictsOf(m: Pick<GlMergeRequest, "has_conflicts" | "merge_status" | "detailed_merge_status">): boolean {
  return m.has_conflicts === true || m.merge_status === "cannot_be_merged" || m.merge_status === "cannot_be_merged_recheck" || m.detailed_merge_status === "conflict";
}

export class GitLabScmProvider implements ScmProvider {
  readonly kind = "gitlab" as const;
  private readonly api: InstanceType<typeof Gitlab<false>>;

  constructor(options: GitLabOptions) {
    this.api = new Gitlab({
      host: options.baseUrl.replace(/\/+$/, ""),
      token: options.token,
      // Bounded by the requester (timeoutMs) instead.
      queryTimeout: null,
      requesterFn: gitlabRequester({ fetch: options.fetch, maxWaitMs: options.maxWaitMs, maxRetries: options.maxRetries, sleep: options.sleep, timeoutMs: options.timeoutMs }),
    });
  }

  /** Runs a call, its refusal mapped to ScmError. */
  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw scmErrorOf(e, what);
    }
  }

  /** Like call, but a 404 answers null. */
  private async callOrNull<T>(what: string, fn: () => Promise<T>): Promise<T | null> {
    try {
      return await fn();
    } catch (e) {
      if (statusOf(e) === 404) return null;
      throw scmErrorOf(e, what);
    }
  }

  private project(repo: string): string {
    checkRepoPath(repo);
    return repo;
  }

  private repoOf(p: GlProject): ScmRepository {
    const parts = p.path_with_namespace.split("/");
    return {
      path: p.path_with_namespace,
      name: parts[parts.length - 1],
      owner: parts.slice(0, -1).join("/"),
      description: p.description || null,
      defaultBranch: p.default_branch ?? "main",
      webUrl: p.web_url,
      lastActivityAt: p.last_activity_at ?? null,
    };
  }

  private mrOf(repo: string, m: GlMergeRequest): ScmMergeRequest {
    const state: MergeRequestState = m.state === "merged" ? "merged" : m.state === "opened" || m.state === "locked" ? "opened" : "closed";
    return {
      hasConflicts: state === "opened" && conflictsOf(m),
      iid: m.iid,
      repository: repo,
      title: m.title,
      description: m.description ?? "",
      sourceBranch: m.source_branch,
      targetBranch: m.target_branch,
      state,
      author: m.author?.username ?? "unknown",
      webUrl: m.web_url,
      createdAt: m.created_at,
      updatedAt: m.updated_at,
      mergedAt: m.merged_at,
      mergeCommitSha: m.merge_commit_sha,
    };
  }

  private tagOf(t: GlTag): ScmTag {
    return { name: t.name, commitSha: t.commit.id, message: t.message || null, createdAt: t.created_at ?? t.commit.created_at ?? null };
  }

  private releaseOf(r: GlRelease): ScmRelease {
    return { tagName: r.tag_name, name: r.name, description: r.description ?? "", commitSha: r.commit?.id ?? "", createdAt: r.created_at };
  }

  async listOwners(): Promise<ScmOwner[]> {
    const ns = (await this.call("listing namespaces", () => this.api.Namespaces.all({ perPage: 100, maxPages: MAX_PAGES }))) as unknown as GlNamespace[];
    return ns.map((n) => ({ path: n.full_path, name: n.name, kind: n.kind === "user" ? "user" : "group" }));
  }

  async listRepositories(options: { owner?: string; search?: string; page?: number; perPage?: number } = {}): Promise<ScmPage<ScmRepository>> {
    const page = Math.max(1, Math.floor(options.page ?? 1));
    const perPage = Math.min(100, Math.max(1, Math.floor(options.perPage ?? 20)));
    const paging = { page, perPage, orderBy: "path", sort: "asc", showExpanded: true, ...(options.search ? { search: options.search } : {}) } as const;
    const answer = await this.call("listing repositories", async () => {
      if (!options.owner) return this.api.Projects.all({ membership: true, ...paging } as Parameters<typeof this.api.Projects.all>[0]);
      const ns = (await this.callOrNull("reading a namespace", () => this.api.Namespaces.show(options.owner!))) as unknown as GlNamespace | null;
      if (!ns) throw new ScmError("not_found", `owner ${options.owner} not found on GitLab`);
      if (ns.kind === "user") return this.api.Users.allProjects(ns.path, { pagination: "offset", ...paging } as Parameters<typeof this.api.Users.allProjects>[1]);
      return this.api.Groups.allProjects(ns.full_path, { includeSubgroups: true, ...paging } as Parameters<typeof this.api.Groups.allProjects>[1]);
    });
    const { data, paginationInfo } = answer as unknown as { data: GlProject[]; paginationInfo: { next: number | null } };
    return { items: data.map((p) => this.repoOf(p)), nextPage: paginationInfo.next };
  }

  async getRepository(repo: string): Promise<ScmRepository | null> {
    const p = (await this.callOrNull(`reading ${repo}`, () => this.api.Projects.show(this.project(repo)))) as unknown as GlProject | null;
    return p ? this.repoOf(p) : null;
  }

  async listMembers(repo: string): Promise<ScmMember[]> {
    const m = (await this.call(`listing members of ${repo}`, () => this.api.ProjectMembers.all(this.project(repo), { includeInherited: true, perPage: 100, maxPages: MAX_PAGES }))) as unknown as Array<{
      username: string;
      name: string;
      access_level: number;
    }>;
    return m.map((x) => ({ username: x.username, name: x.name, accessLevel: x.access_level }));
  }

  private async refOrDefault(repo: string, ref?: string): Promise<string | null> {
    if (ref) return ref;
    return (await this.getRepository(repo))?.defaultBranch ?? null;
  }

  async readFile(repo: string, filePath: string, ref?: string): Promise<string | null> {
    checkFilePath(filePath);
    const r = await this.refOrDefault(repo, ref);
    if (!r) return null;
    const text = await this.callOrNull(`reading ${filePath} in ${repo}`, () => this.api.RepositoryFiles.showRaw(this.project(repo), filePath, r));
    return text === null ? null : String(text);
  }

  async listTree(repo: string, options: { ref?: string; path?: string; recursive?: boolean } = {}): Promise<ScmTreeEntry[]> {
    if (options.path) checkFilePath(options.path);
    const r = await this.refOrDefault(repo, options.ref);
    if (!r) return [];
    // GitLab answers 404 "Tree Not Found" for an empty repository or a missing folder.
    const entries = (await this.callOrNull(`listing files of ${repo}`, () =>
      this.api.Repositories.allRepositoryTrees(this.project(repo), { ref: r, ...(options.path ? { path: options.path } : {}), recursive: options.recursive ?? false, perPage: 100, maxPages: 200 }),
    )) as unknown as Array<{ path: string; type: string }> | null;
    return (entries ?? []).filter((e) => e.type === "blob" || e.type === "tree").map((e) => ({ path: e.path, type: e.type as "blob" | "tree" }));
  }

  async resolveRef(repo: string, ref: string): Promise<string | null> {
    const c = (await this.callOrNull(`resolving ${ref}`, () => this.api.Commits.show(this.project(repo), ref))) as unknown as { id: string } | null;
    return c?.id ?? null;
  }

  async commitFiles(repo: string, input: ScmCommitInput): Promise<ScmCommit> {
    if (input.files.length === 0) throw new ScmError("invalid", "a commit needs at least one file");
    for (const f of input.files) checkFilePath(f.path);
    const branchExists = (await this.resolveRef(repo, input.branch)) !== null;
    const base = branchExists ? input.branch : (input.startBranch ?? (await this.refOrDefault(repo)) ?? "main");
    const actions: Array<{ action: "create" | "update" | "delete"; filePath: string; content?: string }> = [];
    for (const f of input.files) {
      if (f.content === null) actions.push({ action: "delete", filePath: f.path });
      else {
        const exists = (await this.readFile(repo, f.path, base).catch(() => null)) !== null;
        actions.push({ action: exists ? "update" : "create", filePath: f.path, content: f.content });
      }
    }
    const c = (await this.call(`committing to ${repo}`, () =>
      this.api.Commits.create(this.project(repo), input.branch, input.message, actions, {
        ...(branchExists ? {} : { startBranch: base }),
        ...(input.author ? { authorName: input.author.name, authorEmail: input.author.email } : {}),
      }),
    )) as unknown as { id: string };
    return { sha: c.id, branch: input.branch };
  }

  async openMergeRequest(repo: string, input: ScmOpenMergeRequest): Promise<ScmMergeRequest> {
    const target = input.targetBranch ?? (await this.refOrDefault(repo)) ?? "main";
    const m = (await this.call(`opening a merge request in ${repo}`, () =>
      this.api.MergeRequests.create(this.project(repo), input.sourceBranch, target, input.title, { description: input.description ?? "", removeSourceBranch: true }),
    )) as unknown as GlMergeRequest;
    return this.mrOf(repo, m);
  }

  async listMergeRequests(repo: string, options: { state?: MergeRequestState | "all" } = {}): Promise<ScmMergeRequest[]> {
    const state = options.state ?? "opened";
    const list = (await this.call(`listing merge requests of ${repo}`, () =>
      this.api.MergeRequests.all({
        projectId: this.project(repo),
        ...(state === "all" ? {} : { state }),
        // Lists may answer a stale merge_status; this asks GitLab to check again those whose check is due, for the next read.
        withMergeStatusRecheck: true,
        orderBy: "created_at",
        sort: "desc",
        perPage: 100,
        maxPages: MAX_PAGES,
      } as Parameters<typeof this.api.MergeRequests.all>[0]),
    )) as unknown as GlMergeRequest[];
    return list.map((m) => this.mrOf(repo, m));
  }

  async getMergeRequest(repo: string, iid: number): Promise<ScmMergeRequest | null> {
    const m = (await this.callOrNull(`reading merge request !${iid}`, () => this.api.MergeRequests.show(this.project(repo), iid))) as unknown as GlMergeRequest | null;
    return m ? this.mrOf(repo, m) : null;
  }

  async getMergeRequestDiff(repo: string, iid: number): Promise<ScmMergeRequestDiff> {
    const mr = (await this.callOrNull(`reading merge request !${iid}`, () => this.api.MergeRequests.show(this.project(repo), iid))) as unknown as GlMergeRequest | null;
    if (!mr) throw new ScmError("not_found", `merge request !${iid} not found in ${repo}`);
    const diffs = (await this.call(`reading the changes of merge request !${iid}`, () =>
      this.api.MergeRequests.allDiffs(this.project(repo), iid, { perPage: 100, maxPages: MAX_PAGES }),
    )) as unknown as GlDiff[];
    return {
      files: diffs.map((d) => ({ oldPath: d.old_path, newPath: d.new_path, newFile: d.new_file, deletedFile: d.deleted_file, diff: d.diff })),
      hasConflicts: this.mrOf(repo, mr).hasConflicts,
    };
  }

  async mergeMergeRequest(repo: string, iid: number): Promise<ScmMergeRequest> {
    try {
      return this.mrOf(repo, (await this.api.MergeRequests.merge(this.project(repo), iid)) as unknown as GlMergeRequest);
    } catch (e) {
      switch (statusOf(e)) {
        case 405:
          throw new ScmError("not_mergeable", `merge request !${iid} cannot be merged now (GitLab 405): it is closed, already merged, a draft, or waiting for a pipeline or approvals`, 405);
        case 406:
          throw new ScmError("conflict", `merge request !${iid} has conflicts with its target branch (GitLab 406); resolve them first`, 406);
        case 409:
          throw new ScmError("conflict", `merge request !${iid} changed while merging (GitLab 409: the source branch moved); review it and merge again`, 409);
        case 422:
          throw new ScmError("conflict", `merge request !${iid} cannot be merged (GitLab 422: the branch cannot be merged, e.g. conflicts or it is not up to date)`, 422);
        case 404:
          throw new ScmError("not_found", `merge request !${iid} not found in ${repo}`, 404);
        default:
          throw scmErrorOf(e, `merging !${iid}`);
      }
    }
  }

  async closeMergeRequest(repo: string, iid: number): Promise<ScmMergeRequest> {
    const m = (await this.call(`closing merge request !${iid}`, () => this.api.MergeRequests.edit(this.project(repo), iid, { stateEvent: "close" }))) as unknown as GlMergeRequest;
    return this.mrOf(repo, m);
  }

  async listTags(repo: string): Promise<ScmTag[]> {
    const tags = (await this.call(`listing tags of ${repo}`, () =>
      this.api.Tags.all(this.project(repo), { orderBy: "updated", sort: "desc", perPage: 100, maxPages: MAX_PAGES } as Parameters<typeof this.api.Tags.all>[1]),
    )) as unknown as GlTag[];
    return tags.map((t) => this.tagOf(t));
  }

  async createTag(repo: string, input: { name: string; ref: string; message?: string }): Promise<ScmTag> {
    try {
      return this.tagOf((await this.api.Tags.create(this.project(repo), input.name, input.ref, { message: input.message ?? input.name })) as unknown as GlTag);
    } catch (e) {
      if (statusOf(e) === 400) {
        const text = e instanceof GitbeakerRequestError ? (e.cause?.description ?? e.message) : "";
        if (/already exists/i.test(text)) throw new ScmError("conflict", `tag ${input.name} already exists in ${repo}`, 400);
        if (/invalid|not found/i.test(text)) throw new ScmError("not_found", `${input.ref} names no commit in ${repo}`, 400);
        throw new ScmError("invalid", `GitLab refused tag ${input.name}: ${text.slice(0, 200)}`, 400);
      }
      throw scmErrorOf(e, `creating tag ${input.name}`);
    }
  }

  async listReleases(repo: string): Promise<ScmRelease[]> {
    const list = (await this.call(`listing releases of ${repo}`, () => this.api.ProjectReleases.all(this.project(repo), { perPage: 100, maxPages: MAX_PAGES }))) as unknown as GlRelease[];
    return list.map((r) => this.releaseOf(r));
  }

  async createRelease(repo: string, input: { tagName: string; name?: string; description?: string }): Promise<ScmRelease> {
    const r = (await this.call(`creating release ${input.tagName}`, () =>
      this.api.ProjectReleases.create(this.project(repo), { tagName: input.tagName, name: input.name ?? input.tagName, description: input.description ?? "" }),
    )) as unknown as GlRelease;
    return this.releaseOf(r);
  }
}
