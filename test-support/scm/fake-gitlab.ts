/**
 * A fake GitLab for tests: an HTTP server on loopback that answers the subset of REST v4 the
 * gitlab adapter uses, with GitLab's shapes, paging headers (x-page, x-per-page, x-next-page,
 * x-total, x-total-pages), status codes and error bodies. It is backed by real bare repositories
 * (a LocalScmProvider over a folder) and keeps merge requests and releases in memory.
 *
 * Extras for tests: `rateLimit` (RateLimit-* headers, 429 + Retry-After beyond the limit),
 * `failNext()` (answer the next requests with a given status), `requests` (what was asked).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { LocalScmProvider } from "../../lib/scm/local";
import { memoryMergeRequestStore } from "../../lib/scm/merge-request-store";
import { ScmError, type ScmMergeRequest, type ScmRepository } from "../../lib/scm/types";

export interface FakeGitLabOptions {
  /** Folder of the backing bare repositories. */
  root: string;
  token: string;
  /** The user the token belongs to. */
  username?: string;
  rateLimit?: { limit: number; windowMs: number };
}

interface Injected {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface FakeGitLab {
  url: string;
  /** The repositories behind the server (to create and seed repositories). */
  backend: LocalScmProvider;
  requests: Array<{ method: string; path: string }>;
  failNext(...responses: Injected[]): void;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(typeof body === "string" ? body : JSON.stringify(body));
  }
}

function glError(e: unknown): HttpError {
  if (e instanceof HttpError) return e;
  if (e instanceof ScmError) {
    switch (e.code) {
      case "not_found":
        return new HttpError(404, { message: "404 Not found" });
      case "conflict":
        return new HttpError(409, { message: [e.message] });
      case "invalid":
        return new HttpError(400, { message: e.message });
      case "not_mergeable":
        return new HttpError(405, { message: "405 Method Not Allowed" });
      default:
        return new HttpError(500, { message: e.message });
    }
  }
  return new HttpError(500, { message: `500 Internal Server Error: ${(e as Error).message}` });
}

export async function startFakeGitLab(options: FakeGitLabOptions): Promise<FakeGitLab> {
  const backend = new LocalScmProvider({ root: options.root, store: memoryMergeRequestStore() });
  const username = options.username ?? "portal-bot";
  const requests: FakeGitLab["requests"] = [];
  const injected: Injected[] = [];
  const releases = new Map<string, Array<{ tag_name: string; name: string; description: string; created_at: string; commit: { id: string } }>>();
  const projectIds = new Map<string, number>();
  let window = { start: Date.now(), count: 0 };
  let baseUrl = "";

  const idOf = (repo: string) => {
    if (!projectIds.has(repo)) projectIds.set(repo, projectIds.size + 1);
    return projectIds.get(repo) as number;
  };
  const projectJson = (r: ScmRepository) => ({
    id: idOf(r.path),
    name: r.name,
    path: r.name,
    path_with_namespace: r.path,
    name_with_namespace: r.path.split("/").join(" / "),
    description: r.description ?? "",
    default_branch: r.defaultBranch,
    web_url: `${baseUrl}/${r.path}`,
    last_activity_at: r.lastActivityAt,
    namespace: { full_path: r.owner, kind: "group" },
  });
  const mrJson = (m: ScmMergeRequest) => ({
    id: idOf(m.repository) * 10000 + m.iid,
    iid: m.iid,
    project_id: idOf(m.repository),
    title: m.title,
    description: m.description,
    state: m.state,
    source_branch: m.sourceBranch,
    target_branch: m.targetBranch,
    author: { username: m.author, name: m.author },
    web_url: `${baseUrl}/${m.repository}/-/merge_requests/${m.iid}`,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    merged_at: m.mergedAt,
    merge_commit_sha: m.mergeCommitSha,
    // GitLab's verdict of its last check; the backing provider checks on every read, so it is never stale here.
    has_conflicts: m.hasConflicts,
    merge_status: m.state !== "opened" ? "can_be_merged" : m.hasConflicts ? "cannot_be_merged" : "can_be_merged",
    detailed_merge_status: m.state !== "opened" ? "not_open" : m.hasConflicts ? "conflict" : "mergeable",
  });
  const allRepos = async (owner?: string, search?: string) => {
    const out: ScmRepository[] = [];
    let page: number | null = 1;
    while (page !== null) {
      const r = await backend.listRepositories({ owner, search, page, perPage: 100 });
      out.push(...r.items);
      page = r.nextPage;
    }
    return out;
  };
  const resolveProject = async (id: string): Promise<string> => {
    let repo = id;
    if (/^\d+$/.test(id)) repo = [...projectIds.entries()].find(([, n]) => String(n) === id)?.[0] ?? "";
    // Asked before every project request: a look at the folder, not git's description of the repository.
    if (!repo || !(await backend.hasRepository(repo))) throw new HttpError(404, { message: "404 Project Not Found" });
    return repo;
  };

  function paged(res: http.ServerResponse, url: URL, items: unknown[]): unknown[] {
    const page = Math.max(1, Number(url.searchParams.get("page") ?? "1") || 1);
    const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get("per_page") ?? "20") || 20));
    const totalPages = Math.max(1, Math.ceil(items.length / perPage));
    res.setHeader("x-page", String(page));
    res.setHeader("x-per-page", String(perPage));
    res.setHeader("x-total", String(items.length));
    res.setHeader("x-total-pages", String(totalPages));
    res.setHeader("x-next-page", page < totalPages ? String(page + 1) : "");
    res.setHeader("x-prev-page", page > 1 ? String(page - 1) : "");
    // GitLab's Link header, which clients such as @gitbeaker/rest follow page after page.
    const link = (p: number, rel: string) => {
      const u = new URL(`${url.pathname}${url.search}`, baseUrl);
      u.searchParams.set("page", String(p));
      u.searchParams.set("per_page", String(perPage));
      return `<${u.href}>; rel="${rel}"`;
    };
    res.setHeader("link", [...(page < totalPages ? [link(page + 1, "next")] : []), ...(page > 1 ? [link(page - 1, "prev")] : []), link(1, "first"), link(totalPages, "last")].join(", "));
    return items.slice((page - 1) * perPage, page * perPage);
  }

  async function readBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    if (!text) return {};
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new HttpError(400, { error: "body is not valid JSON" });
    }
  }

  async function route(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<unknown> {
    const method = req.method ?? "GET";
    const raw = url.pathname.replace(/^\/api\/v4\/?/, "");
    const seg = raw.split("/").map((s) => decodeURIComponent(s));
    const q = (k: string) => url.searchParams.get(k) ?? undefined;

    if (method === "GET" && seg[0] === "namespaces" && seg.length === 1) {
      const owners = await backend.listOwners();
      const list = [
        { id: 1, name: username, path: username, full_path: username, kind: "user" },
        ...owners.map((o, i) => ({ id: i + 2, name: o.name, path: o.path.split("/").pop(), full_path: o.path, kind: "group" })),
      ];
      return paged(res, url, list);
    }
    if (method === "GET" && seg[0] === "namespaces" && seg.length === 2) {
      if (seg[1] === username) return { id: 1, name: username, path: username, full_path: username, kind: "user" };
      const o = (await backend.listOwners()).find((x) => x.path === seg[1]);
      if (!o) throw new HttpError(404, { message: "404 Namespace Not Found" });
      return { id: 2, name: o.name, path: o.path.split("/").pop(), full_path: o.path, kind: "group" };
    }
    if (method === "GET" && seg[0] === "groups" && seg[2] === "projects") {
      const owners = await backend.listOwners();
      if (!owners.some((o) => o.path === seg[1] || o.path.startsWith(`${seg[1]}/`))) throw new HttpError(404, { message: "404 Group Not Found" });
      const repos = (await allRepos(seg[1], q("search"))).filter((r) => q("include_subgroups") === "true" || r.owner === seg[1]);
      return paged(res, url, repos.map(projectJson));
    }
    if (method === "GET" && seg[0] === "users" && seg[2] === "projects") return paged(res, url, []);
    if (seg[0] !== "projects") throw new HttpError(404, { message: "404 Not Found" });
    if (method === "GET" && seg.length === 1) return paged(res, url, (await allRepos(undefined, q("search"))).map(projectJson));

    const repo = await resolveProject(seg[1]);
    const rest = seg.slice(2);
    const at = (...parts: string[]) => rest.length === parts.length && parts.every((p, i) => p === "*" || p === rest[i]);

    if (method === "GET" && rest.length === 0) return projectJson((await backend.getRepository(repo)) as ScmRepository);
    if (method === "GET" && at("members", "all")) {
      return paged(res, url, (await backend.listMembers(repo)).map((m, i) => ({ id: i + 1, username: m.username, name: m.name, access_level: m.accessLevel, state: "active" })));
    }
    if (method === "GET" && at("repository", "files", "*", "raw")) {
      const text = await backend.readFile(repo, rest[2], q("ref"));
      if (text === null) throw new HttpError(404, { message: "404 File Not Found" });
      return { __raw: text };
    }
    if (method === "GET" && at("repository", "tree")) {
      const entries = await backend.listTree(repo, { ref: q("ref"), path: q("path"), recursive: q("recursive") === "true" });
      if (entries.length === 0) throw new HttpError(404, { message: "404 Tree Not Found" });
      return paged(
        res,
        url,
        entries.map((e) => ({ id: "0".repeat(40), name: e.path.split("/").pop(), type: e.type, path: e.path, mode: e.type === "tree" ? "040000" : "100644" })),
      );
    }
    if (method === "GET" && at("repository", "commits", "*")) {
      const sha = await backend.resolveRef(repo, rest[2]);
      if (!sha) throw new HttpError(404, { message: "404 Commit Not Found" });
      return { id: sha, short_id: sha.slice(0, 8) };
    }
    if (method === "POST" && at("repository", "commits")) {
      const body = await readBody(req);
      const branch = String(body.branch ?? "");
      const actions = (Array.isArray(body.actions) ? body.actions : []) as Array<{ action: string; file_path: string; content?: string }>;
      const branchSha = await backend.resolveRef(repo, `refs/heads/${branch}`);
      const start = body.start_branch ? String(body.start_branch) : undefined;
      if (!branchSha && !start) throw new HttpError(400, { message: "You can only create or edit files when you are on a branch" });
      const base = branchSha ? branch : (start as string);
      for (const a of actions) {
        const exists = (await backend.readFile(repo, a.file_path, base)) !== null;
        if (a.action === "create" && exists) throw new HttpError(400, { message: "A file with this name already exists" });
        if ((a.action === "update" || a.action === "delete") && !exists) throw new HttpError(400, { message: "A file with this name doesn't exist" });
      }
      const author = body.author_name ? { name: String(body.author_name), email: String(body.author_email ?? "unknown@example.com") } : undefined;
      const c = await backend.commitFiles(repo, {
        branch,
        startBranch: start,
        message: String(body.commit_message ?? ""),
        author,
        files: actions.map((a) => ({ path: a.file_path, content: a.action === "delete" ? null : (a.content ?? "") })),
      });
      res.statusCode = 201;
      return { id: c.sha, short_id: c.sha.slice(0, 8), title: String(body.commit_message ?? "").split("\n")[0] };
    }
    if (at("merge_requests")) {
      if (method === "GET") {
        const state = (q("state") ?? "all") as "opened" | "merged" | "closed" | "all";
        return paged(res, url, (await backend.listMergeRequests(repo, { state })).map(mrJson));
      }
      if (method === "POST") {
        const body = await readBody(req);
        if (!(await backend.resolveRef(repo, `refs/heads/${String(body.source_branch)}`))) throw new HttpError(422, { message: ["Source branch does not exist"] });
        const mr = await backend.openMergeRequest(repo, {
          sourceBranch: String(body.source_branch),
          targetBranch: body.target_branch ? String(body.target_branch) : undefined,
          title: String(body.title ?? ""),
          description: body.description ? String(body.description) : "",
          author: username,
        });
        res.statusCode = 201;
        return mrJson(mr);
      }
    }
    if (at("merge_requests", "*")) {
      const iid = Number(rest[1]);
      if (method === "GET") {
        const mr = await backend.getMergeRequest(repo, iid);
        if (!mr) throw new HttpError(404, { message: "404 Not found" });
        return mrJson(mr);
      }
      if (method === "PUT") {
        const body = await readBody(req);
        if (body.state_event === "close") return mrJson(await backend.closeMergeRequest(repo, iid));
        const mr = await backend.getMergeRequest(repo, iid);
        if (!mr) throw new HttpError(404, { message: "404 Not found" });
        return mrJson(mr);
      }
    }
    if (method === "GET" && at("merge_requests", "*", "diffs")) {
      const iid = Number(rest[1]);
      if (!(await backend.getMergeRequest(repo, iid))) throw new HttpError(404, { message: "404 Not found" });
      const { files } = await backend.getMergeRequestDiff(repo, iid);
      return paged(
        res,
        url,
        files.map((f) => ({ old_path: f.oldPath, new_path: f.newPath, new_file: f.newFile, deleted_file: f.deletedFile, renamed_file: f.oldPath !== f.newPath, a_mode: "100644", b_mode: "100644", diff: f.diff, generated_file: false })),
      );
    }
    if (method === "PUT" && at("merge_requests", "*", "merge")) {
      const iid = Number(rest[1]);
      const mr = await backend.getMergeRequest(repo, iid);
      if (!mr) throw new HttpError(404, { message: "404 Not found" });
      if (mr.state !== "opened") throw new HttpError(405, { message: "405 Method Not Allowed" });
      try {
        return mrJson(await backend.mergeMergeRequest(repo, iid));
      } catch (e) {
        if (e instanceof ScmError && e.code === "conflict") throw new HttpError(422, { message: "Branch cannot be merged" });
        throw e;
      }
    }
    if (at("repository", "tags")) {
      if (method === "GET") {
        const tags = await backend.listTags(repo);
        return paged(
          res,
          url,
          tags.map((t) => ({ name: t.name, message: t.message ?? "", target: t.commitSha, commit: { id: t.commitSha, created_at: t.createdAt }, created_at: t.createdAt, protected: false })),
        );
      }
      if (method === "POST") {
        // GitLab takes parameters in the query or the body (@gitbeaker/rest sends tag_name and ref in the query).
        const body = { tag_name: q("tag_name") ?? undefined, ref: q("ref") ?? undefined, message: q("message") ?? undefined, ...(await readBody(req)) };
        const name = String(body.tag_name ?? "");
        if ((await backend.listTags(repo)).some((t) => t.name === name)) throw new HttpError(400, { message: `Tag ${name} already exists` });
        if (!(await backend.resolveRef(repo, String(body.ref ?? "")))) throw new HttpError(400, { message: "Target ref is invalid" });
        const t = await backend.createTag(repo, { name, ref: String(body.ref), message: body.message ? String(body.message) : undefined });
        res.statusCode = 201;
        return { name: t.name, message: t.message ?? "", target: t.commitSha, commit: { id: t.commitSha, created_at: t.createdAt }, created_at: t.createdAt };
      }
    }
    if (at("releases")) {
      const list = releases.get(repo) ?? [];
      if (method === "GET") return paged(res, url, [...list].reverse());
      if (method === "POST") {
        const body = await readBody(req);
        const tagName = String(body.tag_name ?? "");
        const tag = (await backend.listTags(repo)).find((t) => t.name === tagName);
        if (!tag) throw new HttpError(422, { message: "Tag does not exist" });
        if (list.some((r) => r.tag_name === tagName)) throw new HttpError(409, { message: "Release already exists" });
        const rel = { tag_name: tagName, name: String(body.name ?? tagName), description: String(body.description ?? ""), created_at: new Date().toISOString(), commit: { id: tag.commitSha } };
        releases.set(repo, [...list, rel]);
        res.statusCode = 201;
        return rel;
      }
    }
    throw new HttpError(404, { message: "404 Not Found" });
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    requests.push({ method: req.method ?? "GET", path: url.pathname + url.search });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      if (body && typeof body === "object" && "__raw" in body) {
        res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" });
        res.end(String((body as { __raw: string }).__raw));
        return;
      }
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const inj = injected.shift();
    if (inj) return send(inj.status, inj.body ?? { message: `${inj.status}` }, inj.headers);
    if (req.headers["private-token"] !== options.token) return send(401, { message: "401 Unauthorized" });
    if (options.rateLimit) {
      const now = Date.now();
      if (now - window.start >= options.rateLimit.windowMs) window = { start: now, count: 0 };
      window.count++;
      const reset = Math.ceil((window.start + options.rateLimit.windowMs) / 1000);
      const remaining = Math.max(0, options.rateLimit.limit - window.count);
      res.setHeader("RateLimit-Limit", String(options.rateLimit.limit));
      res.setHeader("RateLimit-Remaining", String(remaining));
      res.setHeader("RateLimit-Reset", String(reset));
      if (window.count > options.rateLimit.limit) {
        const retry = Math.max(1, Math.ceil((window.start + options.rateLimit.windowMs - now) / 1000));
        return send(429, { message: "Retry later" }, { "Retry-After": String(retry) });
      }
    }
    route(req, res, url).then(
      (body) => send(res.statusCode && res.statusCode !== 200 ? res.statusCode : 200, body),
      (e: unknown) => {
        const err = glError(e);
        send(err.status, err.body);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    backend,
    requests,
    failNext: (...responses) => injected.push(...responses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
