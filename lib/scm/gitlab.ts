// Over 400 lines on purpose: one ScmProvider implementation, each method a small GitLab REST call sharing the client's paging and rate-limit handling.
/**
 * The `gitlab` provider: GitLab REST v4 with a token (PRIVATE-TOKEN header).
 * - Project and file paths are URL-encoded (`commerce%2Fcheckout-api`).
 * - Lists follow `x-next-page` (empty on the last page).
 * - 429 waits `Retry-After` seconds (capped) and retries; when `RateLimit-Remaining` reaches 0 the next
 *   request waits until `RateLimit-Reset` (capped).
 * - Merge answers 405 / 406 / 409 / 422 become ScmError with a message a person can act on.
 */
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

const enc = encodeURIComponent;

export class GitLabScmProvider implements ScmProvider {
  readonly kind = "gitlab" as const;
  private readonly api: string;
  private readonly fetchImpl: typeof fetch;
  private readonly maxWaitMs: number;
  private readonly maxRetries: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly timeoutMs: number;
  /** When the server said no request is left: epoch ms before which we wait. */
  private pausedUntil = 0;

  constructor(private readonly options: GitLabOptions) {
    this.api = `${options.baseUrl.replace(/\/+$/, "")}/api/v4`;
    this.fetchImpl = options.fetch ?? fetch;
    this.maxWaitMs = options.maxWaitMs ?? 60_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  private project(repo: string): string {
    checkRepoPath(repo);
    return `/projects/${enc(repo)}`;
  }

  /** One HTTP exchange with rate-limit handling; answers the Response (any status) after retries. */
  private async send(method: string, pathAndQuery: string, body?: unknown): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const wait = this.pausedUntil - Date.now();
      if (wait > 0) await this.sleep(Math.min(wait, this.maxWaitMs));
      let res: Response;
      try {
        res = await this.fetchImpl(`${this.api}${pathAndQuery}`, {
          method,
          headers: {
            "PRIVATE-TOKEN": this.options.token,
            Accept: "application/json",
            ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
          },
          body: body !== undefined ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (e) {
        if (attempt < this.maxRetries) {
          await this.sleep(Math.min(500 * 2 ** attempt, this.maxWaitMs));
          continue;
        }
        throw new ScmError("unavailable", `GitLab is not reachable: ${(e as Error).message}`);
      }
      this.noteRateLimit(res);
      if (res.status === 429 || res.status === 502 || res.status === 503 || res.status === 504) {
        if (attempt >= this.maxRetries) {
          if (res.status === 429) throw new ScmError("rate_limited", "GitLab rate limit reached; try again later", 429);
          throw new ScmError("unavailable", `GitLab answered ${res.status}`, res.status);
        }
        await res.body?.cancel().catch(() => undefined);
        await this.sleep(this.retryDelay(res, attempt));
        continue;
      }
      return res;
    }
  }

  private retryDelay(res: Response, attempt: number): number {
    const header = res.headers.get("retry-after");
    if (header) {
      const seconds = Number(header);
      const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
      if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), this.maxWaitMs);
    }
    const reset = Number(res.headers.get("ratelimit-reset"));
    if (Number.isFinite(reset) && reset > 0) return Math.min(Math.max(reset * 1000 - Date.now(), 0), this.maxWaitMs);
    return Math.min(1000 * 2 ** attempt, this.maxWaitMs);
  }

  private noteRateLimit(res: Response): void {
    const remaining = res.headers.get("ratelimit-remaining");
    if (remaining !== null && Number(remaining) <= 0) {
      const reset = Number(res.headers.get("ratelimit-reset"));
      this.pausedUntil = Number.isFinite(reset) && reset > 0 ? reset * 1000 : Date.now() + 1000;
    }
  }

  private async errorOf(res: Response, what: string): Promise<ScmError> {
    const text = await res.text().catch(() => "");
    let detail = text;
    try {
      const j = JSON.parse(text) as { message?: unknown; error?: unknown };
      const m = j.message ?? j.error;
      detail = typeof m === "string" ? m : JSON.stringify(m);
    } catch {
      /* plain text */
    }
    detail = detail.slice(0, 300);
    switch (res.status) {
      case 401:
        return new ScmError("unauthorized", `GitLab refused the portal's token (401) while ${what}`, 401);
      case 403:
        return new ScmError("forbidden", `GitLab forbids ${what} (403): ${detail}`, 403);
      case 404:
        return new ScmError("not_found", `not found on GitLab while ${what}`, 404);
      case 409:
        return new ScmError("conflict", `conflict while ${what}: ${detail}`, 409);
      case 400:
      case 422:
        return new ScmError("invalid", `GitLab refused ${what}: ${detail}`, res.status);
      default:
        return new ScmError("unavailable", `GitLab answered ${res.status} while ${what}: ${detail}`, res.status);
    }
  }

  private async json<T>(method: string, p: string, what: string, body?: unknown): Promise<T> {
    const res = await this.send(method, p, body);
    if (!res.ok) throw await this.errorOf(res, what);
    return (await res.json()) as T;
  }

  private async jsonOrNull<T>(p: string, what: string): Promise<T | null> {
    const res = await this.send("GET", p);
    if (res.status === 404) {
      await res.body?.cancel().catch(() => undefined);
      return null;
    }
    if (!res.ok) throw await this.errorOf(res, what);
    return (await res.json()) as T;
  }

  /** One page: items and x-next-page. */
  private async page<T>(p: string, what: string, page: number, perPage: number): Promise<ScmPage<T>> {
    const sep = p.includes("?") ? "&" : "?";
    const res = await this.send("GET", `${p}${sep}page=${page}&per_page=${perPage}`);
    if (!res.ok) throw await this.errorOf(res, what);
    const next = res.headers.get("x-next-page");
    return { items: (await res.json()) as T[], nextPage: next ? Number(next) : null };
  }

  /** Every page (x-next-page until empty), at most `limit` items. */
  private async all<T>(p: string, what: string, limit = 2000): Promise<T[]> {
    const out: T[] = [];
    let page: number | null = 1;
    while (page !== null && out.length < limit) {
      const r: ScmPage<T> = await this.page<T>(p, what, page, 100);
      out.push(...r.items);
      page = r.nextPage;
    }
    return out;
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

  async listOwners(): Promise<ScmOwner[]> {
    const ns = await this.all<GlNamespace>("/namespaces", "listing namespaces");
    return ns.map((n) => ({ path: n.full_path, name: n.name, kind: n.kind === "user" ? "user" : "group" }));
  }

  async listRepositories(options: { owner?: string; search?: string; page?: number; perPage?: number } = {}): Promise<ScmPage<ScmRepository>> {
    const page = Math.max(1, Math.floor(options.page ?? 1));
    const perPage = Math.min(100, Math.max(1, Math.floor(options.perPage ?? 20)));
    const search = options.search ? `&search=${enc(options.search)}` : "";
    let base = `/projects?membership=true&order_by=path&sort=asc${search}`;
    if (options.owner) {
      const ns = await this.jsonOrNull<GlNamespace>(`/namespaces/${enc(options.owner)}`, "reading a namespace");
      if (!ns) throw new ScmError("not_found", `owner ${options.owner} not found on GitLab`);
      base =
        ns.kind === "user"
          ? `/users/${enc(ns.path)}/projects?order_by=path&sort=asc${search}`
          : `/groups/${enc(ns.full_path)}/projects?include_subgroups=true&order_by=path&sort=asc${search}`;
    }
    const r = await this.page<GlProject>(base, "listing repositories", page, perPage);
    return { items: r.items.map((p) => this.repoOf(p)), nextPage: r.nextPage };
  }

  async getRepository(repo: string): Promise<ScmRepository | null> {
    const p = await this.jsonOrNull<GlProject>(this.project(repo), `reading ${repo}`);
    return p ? this.repoOf(p) : null;
  }

  async listMembers(repo: string): Promise<ScmMember[]> {
    const m = await this.all<{ username: string; name: string; access_level: number }>(`${this.project(repo)}/members/all`, `listing members of ${repo}`);
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
    const res = await this.send("GET", `${this.project(repo)}/repository/files/${enc(filePath)}/raw?ref=${enc(r)}`);
    if (res.status === 404) {
      await res.body?.cancel().catch(() => undefined);
      return null;
    }
    if (!res.ok) throw await this.errorOf(res, `reading ${filePath} in ${repo}`);
    return res.text();
  }

  async listTree(repo: string, options: { ref?: string; path?: string; recursive?: boolean } = {}): Promise<ScmTreeEntry[]> {
    if (options.path) checkFilePath(options.path);
    const r = await this.refOrDefault(repo, options.ref);
    if (!r) return [];
    const q = `?ref=${enc(r)}${options.path ? `&path=${enc(options.path)}` : ""}${options.recursive ? "&recursive=true" : ""}`;
    let entries: Array<{ path: string; type: string }>;
    try {
      entries = await this.all<{ path: string; type: string }>(`${this.project(repo)}/repository/tree${q}`, `listing files of ${repo}`, 20_000);
    } catch (e) {
      // GitLab answers 404 "Tree Not Found" for an empty repository or a missing folder.
      if (e instanceof ScmError && e.code === "not_found") return [];
      throw e;
    }
    return entries.filter((e) => e.type === "blob" || e.type === "tree").map((e) => ({ path: e.path, type: e.type as "blob" | "tree" }));
  }

  async resolveRef(repo: string, ref: string): Promise<string | null> {
    const c = await this.jsonOrNull<{ id: string }>(`${this.project(repo)}/repository/commits/${enc(ref)}`, `resolving ${ref}`);
    return c?.id ?? null;
  }

  async commitFiles(repo: string, input: ScmCommitInput): Promise<ScmCommit> {
    if (input.files.length === 0) throw new ScmError("invalid", "a commit needs at least one file");
    for (const f of input.files) checkFilePath(f.path);
    const branchExists = (await this.resolveRef(repo, input.branch)) !== null;
    const base = branchExists ? input.branch : (input.startBranch ?? (await this.refOrDefault(repo)) ?? "main");
    const actions = [];
    for (const f of input.files) {
      if (f.content === null) actions.push({ action: "delete", file_path: f.path });
      else {
        const exists = (await this.readFile(repo, f.path, base).catch(() => null)) !== null;
        actions.push({ action: exists ? "update" : "create", file_path: f.path, content: f.content });
      }
    }
    const body: Record<string, unknown> = { branch: input.branch, commit_message: input.message, actions };
    if (!branchExists) body.start_branch = base;
    if (input.author) {
      body.author_name = input.author.name;
      body.author_email = input.author.email;
    }
    const c = await this.json<{ id: string }>("POST", `${this.project(repo)}/repository/commits`, `committing to ${repo}`, body);
    return { sha: c.id, branch: input.branch };
  }

  async openMergeRequest(repo: string, input: ScmOpenMergeRequest): Promise<ScmMergeRequest> {
    const target = input.targetBranch ?? (await this.refOrDefault(repo)) ?? "main";
    const m = await this.json<GlMergeRequest>("POST", `${this.project(repo)}/merge_requests`, `opening a merge request in ${repo}`, {
      source_branch: input.sourceBranch,
      target_branch: target,
      title: input.title,
      description: input.description ?? "",
      remove_source_branch: true,
    });
    return this.mrOf(repo, m);
  }

  async listMergeRequests(repo: string, options: { state?: MergeRequestState | "all" } = {}): Promise<ScmMergeRequest[]> {
    const state = options.state ?? "opened";
    const list = await this.all<GlMergeRequest>(`${this.project(repo)}/merge_requests?state=${state}&order_by=created_at&sort=desc`, `listing merge requests of ${repo}`);
    return list.map((m) => this.mrOf(repo, m));
  }

  async getMergeRequest(repo: string, iid: number): Promise<ScmMergeRequest | null> {
    const m = await this.jsonOrNull<GlMergeRequest>(`${this.project(repo)}/merge_requests/${iid}`, `reading merge request !${iid}`);
    return m ? this.mrOf(repo, m) : null;
  }

  async getMergeRequestDiff(repo: string, iid: number): Promise<ScmMergeRequestDiff> {
    const mr = await this.jsonOrNull<GlMergeRequest>(`${this.project(repo)}/merge_requests/${iid}`, `reading merge request !${iid}`);
    if (!mr) throw new ScmError("not_found", `merge request !${iid} not found in ${repo}`);
    const diffs = await this.all<GlDiff>(`${this.project(repo)}/merge_requests/${iid}/diffs`, `reading the changes of merge request !${iid}`);
    return {
      files: diffs.map((d) => ({ oldPath: d.old_path, newPath: d.new_path, newFile: d.new_file, deletedFile: d.deleted_file, diff: d.diff })),
      hasConflicts: mr.state === "opened" && mr.has_conflicts === true,
    };
  }

  async mergeMergeRequest(repo: string, iid: number): Promise<ScmMergeRequest> {
    const res = await this.send("PUT", `${this.project(repo)}/merge_requests/${iid}/merge`, {});
    if (res.ok) return this.mrOf(repo, (await res.json()) as GlMergeRequest);
    const text = await res.text().catch(() => "");
    switch (res.status) {
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
        throw await this.errorOf(new Response(text, { status: res.status }), `merging !${iid}`);
    }
  }

  async closeMergeRequest(repo: string, iid: number): Promise<ScmMergeRequest> {
    const m = await this.json<GlMergeRequest>("PUT", `${this.project(repo)}/merge_requests/${iid}`, `closing merge request !${iid}`, { state_event: "close" });
    return this.mrOf(repo, m);
  }

  async listTags(repo: string): Promise<ScmTag[]> {
    const tags = await this.all<GlTag>(`${this.project(repo)}/repository/tags?order_by=updated&sort=desc`, `listing tags of ${repo}`);
    return tags.map((t) => ({ name: t.name, commitSha: t.commit.id, message: t.message || null, createdAt: t.created_at ?? t.commit.created_at ?? null }));
  }

  async createTag(repo: string, input: { name: string; ref: string; message?: string }): Promise<ScmTag> {
    const res = await this.send("POST", `${this.project(repo)}/repository/tags`, { tag_name: input.name, ref: input.ref, message: input.message ?? input.name });
    if (res.status === 400) {
      const text = await res.text();
      if (/already exists/i.test(text)) throw new ScmError("conflict", `tag ${input.name} already exists in ${repo}`, 400);
      if (/invalid|not found/i.test(text)) throw new ScmError("not_found", `${input.ref} names no commit in ${repo}`, 400);
      throw new ScmError("invalid", `GitLab refused tag ${input.name}: ${text.slice(0, 200)}`, 400);
    }
    if (!res.ok) throw await this.errorOf(res, `creating tag ${input.name}`);
    const t = (await res.json()) as GlTag;
    return { name: t.name, commitSha: t.commit.id, message: t.message || null, createdAt: t.created_at ?? t.commit.created_at ?? null };
  }

  async listReleases(repo: string): Promise<ScmRelease[]> {
    const list = await this.all<GlRelease>(`${this.project(repo)}/releases`, `listing releases of ${repo}`);
    return list.map((r) => ({ tagName: r.tag_name, name: r.name, description: r.description ?? "", commitSha: r.commit?.id ?? "", createdAt: r.created_at }));
  }

  async createRelease(repo: string, input: { tagName: string; name?: string; description?: string }): Promise<ScmRelease> {
    const r = await this.json<GlRelease>("POST", `${this.project(repo)}/releases`, `creating release ${input.tagName}`, {
      tag_name: input.tagName,
      name: input.name ?? input.tagName,
      description: input.description ?? "",
    });
    return { tagName: r.tag_name, name: r.name, description: r.description ?? "", commitSha: r.commit?.id ?? "", createdAt: r.created_at };
  }
}
