/**
 * The provider contract: one suite, run against the local adapter (merge requests in the portal
 * database, PGlite and PostgreSQL when TEST_DATABASE_URL is set) and against the gitlab adapter talking
 * to the fake GitLab server (backed by real bare repositories).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as schema from "../portal/db/schema";
import { openTestDatabase, testDatabaseTargets, type TestDatabase } from "../db/testing";
import { LocalScmProvider } from "./local";
import { dbMergeRequestStore } from "./mr-store";
import { GitLabScmProvider } from "./gitlab";
import { startFakeGitLab, type FakeGitLab } from "./fake-gitlab";
import { ScmError, type ScmProvider } from "./types";

const migrationsDir = path.resolve("lib/portal/db/migrations");
const author = { name: "Alice Martin", email: "alice.martin@example.com" };

interface Harness {
  provider: ScmProvider;
  /** Creates and seeds repositories behind the provider. */
  seed: LocalScmProvider;
  close(): Promise<void>;
}

const targets: Array<[string, () => Promise<Harness>]> = [
  ...testDatabaseTargets().map(
    (target) =>
      [
        `local (${target})`,
        async () => {
          const root = await mkdtemp(path.join(tmpdir(), "scm-local-"));
          const db: TestDatabase<typeof schema> = await openTestDatabase(target, { schema, migrationsDir, migrationsTable: "__portal_migrations" });
          const provider = new LocalScmProvider({ root, store: dbMergeRequestStore(db.db) });
          return {
            provider,
            seed: provider,
            close: async () => {
              await db.close();
              await rm(root, { recursive: true, force: true });
            },
          };
        },
      ] as [string, () => Promise<Harness>],
  ),
  [
    "gitlab (fake server)",
    async () => {
      const root = await mkdtemp(path.join(tmpdir(), "scm-gitlab-"));
      const fake: FakeGitLab = await startFakeGitLab({ root, token: "secret-token" });
      const provider = new GitLabScmProvider({ baseUrl: fake.url, token: "secret-token", sleep: async () => undefined });
      return {
        provider,
        seed: fake.backend,
        close: async () => {
          await fake.close();
          await rm(root, { recursive: true, force: true });
        },
      };
    },
  ],
];

async function expectScmError(p: Promise<unknown>, code: ScmError["code"]): Promise<ScmError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ScmError);
  expect((e as ScmError).code).toBe(code);
  return e as ScmError;
}

describe.each(targets)("provider contract: %s", (_label, make) => {
  let h: Harness;
  let p: ScmProvider;
  beforeAll(async () => {
    h = await make();
    p = h.provider;
    for (const name of ["alpha", "beta", "gamma", "delta", "epsilon"]) {
      await h.seed.createRepository(`team/${name}`, { description: `The ${name} project` });
      await h.seed.commitFiles(`team/${name}`, { branch: "main", message: "Initial commit", author, files: [{ path: "README.md", content: `# ${name}\n` }] });
    }
    await h.seed.createRepository("other/tool");
    await h.seed.commitFiles("other/tool", {
      branch: "main",
      message: "Start",
      author: { name: "Bob Nguyen", email: "bob.nguyen@example.com" },
      files: [
        { path: "package.json", content: '{"name":"tool"}\n' },
        { path: "src/cli.ts", content: "console.log(1)\n" },
      ],
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("lists owners and repositories, paged", async () => {
    const owners = (await p.listOwners()).map((o) => o.path);
    expect(owners).toEqual(expect.arrayContaining(["team", "other"]));
    const seen: string[] = [];
    let page: number | null = 1;
    let pages = 0;
    while (page !== null) {
      const r = await p.listRepositories({ owner: "team", page, perPage: 2 });
      expect(r.items.length).toBeLessThanOrEqual(2);
      seen.push(...r.items.map((x) => x.path));
      page = r.nextPage;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual(["team/alpha", "team/beta", "team/delta", "team/epsilon", "team/gamma"]);
    const one = await p.getRepository("team/alpha");
    expect(one).toMatchObject({ path: "team/alpha", name: "alpha", owner: "team", defaultBranch: "main", description: "The alpha project" });
    expect(await p.getRepository("team/missing")).toBeNull();
    const members = await p.listMembers("other/tool");
    expect(members.map((m) => m.username)).toContain("bob.nguyen");
  });

  it("reads files and trees; missing ones are null or empty", async () => {
    expect(await p.readFile("other/tool", "package.json")).toBe('{"name":"tool"}\n');
    expect(await p.readFile("other/tool", "nope.txt")).toBeNull();
    expect(await p.readFile("other/tool", "package.json", "no-such-branch")).toBeNull();
    const top = await p.listTree("other/tool");
    expect(top.map((e) => `${e.type}:${e.path}`).sort()).toEqual(["blob:package.json", "tree:src"]);
    const all = await p.listTree("other/tool", { recursive: true });
    expect(all.map((e) => e.path)).toContain("src/cli.ts");
    const sub = await p.listTree("other/tool", { path: "src" });
    expect(sub.map((e) => e.path)).toEqual(["src/cli.ts"]);
    expect(await p.resolveRef("other/tool", "main")).toMatch(/^[0-9a-f]{40}$/);
    expect(await p.resolveRef("other/tool", "no-such-branch")).toBeNull();
  });

  it("commits files to a new branch without touching the default branch", async () => {
    const before = await p.resolveRef("team/alpha", "main");
    const c = await p.commitFiles("team/alpha", {
      branch: "feature/one",
      message: "Add config",
      author,
      files: [
        { path: "config/app.yaml", content: "a: 1\n" },
        { path: "README.md", content: "# alpha v2\n" },
      ],
    });
    expect(c.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await p.readFile("team/alpha", "config/app.yaml", "feature/one")).toBe("a: 1\n");
    expect(await p.readFile("team/alpha", "config/app.yaml")).toBeNull();
    expect(await p.resolveRef("team/alpha", "main")).toBe(before);
    const del = await p.commitFiles("team/alpha", { branch: "feature/one", message: "Remove readme", author, files: [{ path: "README.md", content: null }] });
    expect(await p.resolveRef("team/alpha", "feature/one")).toBe(del.sha);
    expect(await p.readFile("team/alpha", "README.md", "feature/one")).toBeNull();
  });

  it("opens, lists, merges and closes merge requests", async () => {
    await p.commitFiles("team/beta", { branch: "change-a", message: "A", author, files: [{ path: "a.txt", content: "a\n" }] });
    await p.commitFiles("team/beta", { branch: "change-b", message: "B", author, files: [{ path: "b.txt", content: "b\n" }] });
    const a = await p.openMergeRequest("team/beta", { sourceBranch: "change-a", title: "Add a", description: "why", author: "alice.martin" });
    const b = await p.openMergeRequest("team/beta", { sourceBranch: "change-b", title: "Add b" });
    expect(a).toMatchObject({ state: "opened", sourceBranch: "change-a", targetBranch: "main", title: "Add a" });
    expect(b.iid).toBe(a.iid + 1);
    expect((await p.listMergeRequests("team/beta")).map((m) => m.iid).sort()).toEqual([a.iid, b.iid]);
    const merged = await p.mergeMergeRequest("team/beta", a.iid);
    expect(merged.state).toBe("merged");
    expect(merged.mergeCommitSha).toMatch(/^[0-9a-f]{40}$/);
    expect(await p.readFile("team/beta", "a.txt")).toBe("a\n");
    expect(await p.resolveRef("team/beta", "main")).toBe(merged.mergeCommitSha);
    await expectScmError(p.mergeMergeRequest("team/beta", a.iid), "not_mergeable");
    const closed = await p.closeMergeRequest("team/beta", b.iid);
    expect(closed.state).toBe("closed");
    expect(await p.listMergeRequests("team/beta")).toEqual([]);
    expect((await p.listMergeRequests("team/beta", { state: "all" })).length).toBe(2);
    expect((await p.getMergeRequest("team/beta", b.iid))?.state).toBe("closed");
    await expectScmError(p.mergeMergeRequest("team/beta", b.iid), "not_mergeable");
    expect(await p.getMergeRequest("team/beta", 999)).toBeNull();
  });

  it("refuses to merge a merge request with conflicts", async () => {
    await p.commitFiles("team/gamma", { branch: "left", message: "L", author, files: [{ path: "README.md", content: "left\n" }] });
    await p.commitFiles("team/gamma", { branch: "main", message: "M", author, files: [{ path: "README.md", content: "main\n" }] });
    const mr = await p.openMergeRequest("team/gamma", { sourceBranch: "left", title: "Conflicting" });
    const err = await expectScmError(p.mergeMergeRequest("team/gamma", mr.iid), "conflict");
    expect(err.message).toMatch(/conflict|cannot be merged/);
    expect(await p.readFile("team/gamma", "README.md")).toBe("main\n");
    expect((await p.getMergeRequest("team/gamma", mr.iid))?.state).toBe("opened");
  });

  it("creates and lists tags and releases; a tag is created once", async () => {
    const sha = await p.resolveRef("team/delta", "main");
    const t = await p.createTag("team/delta", { name: "v0.1.0", ref: "main", message: "Release 0.1.0" });
    expect(t).toMatchObject({ name: "v0.1.0", commitSha: sha });
    await expectScmError(p.createTag("team/delta", { name: "v0.1.0", ref: "main" }), "conflict");
    await expectScmError(p.createTag("team/delta", { name: "v9.9.9", ref: "no-such-ref" }), "not_found");
    expect((await p.listTags("team/delta")).map((x) => x.name)).toEqual(["v0.1.0"]);
    const rel = await p.createRelease("team/delta", { tagName: "v0.1.0", name: "0.1.0", description: "First" });
    expect(rel).toMatchObject({ tagName: "v0.1.0", commitSha: sha });
    expect((await p.listReleases("team/delta")).map((r) => r.tagName)).toContain("v0.1.0");
  });

  it("serialises concurrent commits to one branch: none lost", async () => {
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => p.commitFiles("team/epsilon", { branch: "main", message: `file ${i}`, author, files: [{ path: `f${i}.txt`, content: `${i}\n` }] })),
    );
    const files = (await p.listTree("team/epsilon")).map((e) => e.path);
    for (let i = 0; i < 6; i++) expect(files).toContain(`f${i}.txt`);
  });

  it("answers not_found for a repository that does not exist", async () => {
    await expectScmError(p.listTags("team/nothing-here"), "not_found");
    await expectScmError(p.commitFiles("team/nothing-here", { branch: "main", message: "x", files: [{ path: "a", content: "b" }] }), "not_found");
  });
});

describe("gitlab adapter specifics (fake server)", () => {
  let root: string;
  let fake: FakeGitLab;
  const sleeps: number[] = [];
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "scm-gitlab-x-"));
    fake = await startFakeGitLab({ root, token: "tok" });
    await fake.backend.createRepository("acme/web");
    await fake.backend.commitFiles("acme/web", { branch: "main", message: "init", author, files: [{ path: "docs/guide/intro.md", content: "hi\n" }] });
  });
  afterAll(async () => {
    await fake?.close();
    await rm(root, { recursive: true, force: true });
  });
  const provider = (token = "tok") =>
    new GitLabScmProvider({
      baseUrl: fake.url,
      token,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });

  it("URL-encodes project and file paths", async () => {
    fake.requests.length = 0;
    expect(await provider().readFile("acme/web", "docs/guide/intro.md", "main")).toBe("hi\n");
    expect(fake.requests.map((r) => r.path)).toContain("/api/v4/projects/acme%2Fweb/repository/files/docs%2Fguide%2Fintro.md/raw?ref=main");
  });

  it("waits Retry-After on 429 and retries", async () => {
    sleeps.length = 0;
    fake.failNext({ status: 429, headers: { "Retry-After": "2" }, body: { message: "Retry later" } });
    expect((await provider().getRepository("acme/web"))?.path).toBe("acme/web");
    expect(sleeps).toEqual([2000]);
  });

  it("gives up with rate_limited after repeated 429s", async () => {
    fake.failNext(...Array.from({ length: 4 }, () => ({ status: 429, headers: { "Retry-After": "1" } })));
    await expectScmError(provider().getRepository("acme/web"), "rate_limited");
  });

  it("pauses until RateLimit-Reset when RateLimit-Remaining reaches 0", async () => {
    sleeps.length = 0;
    const reset = Math.ceil(Date.now() / 1000) + 5;
    fake.failNext({ status: 200, headers: { "RateLimit-Remaining": "0", "RateLimit-Reset": String(reset) }, body: { id: 1, path_with_namespace: "acme/web", name: "web", path: "web", default_branch: "main", web_url: "x", description: "" } });
    const p = provider();
    await p.getRepository("acme/web");
    await p.getRepository("acme/web");
    expect(sleeps.length).toBe(1);
    expect(sleeps[0]).toBeGreaterThan(3000);
    expect(sleeps[0]).toBeLessThanOrEqual(6000);
  });

  it("maps a refused token and merge errors to clear portal errors", async () => {
    await expectScmError(provider("wrong").listOwners(), "unauthorized");
    fake.failNext({ status: 405, body: { message: "405 Method Not Allowed" } });
    expect((await expectScmError(provider().mergeMergeRequest("acme/web", 1), "not_mergeable")).message).toMatch(/cannot be merged now/);
    fake.failNext({ status: 409, body: { message: "SHA does not match HEAD of source branch" } });
    expect((await expectScmError(provider().mergeMergeRequest("acme/web", 1), "conflict")).message).toMatch(/source branch moved/);
    fake.failNext({ status: 422, body: { message: "Branch cannot be merged" } });
    expect((await expectScmError(provider().mergeMergeRequest("acme/web", 1), "conflict")).message).toMatch(/cannot be merged/);
  });

  it("follows x-next-page through every page", async () => {
    for (let i = 0; i < 3; i++) await fake.backend.createTag("acme/web", { name: `t${i}`, ref: "main" });
    fake.requests.length = 0;
    // listTags asks 100 per page; force small pages through the raw helper by many tags instead
    const tags = await provider().listTags("acme/web");
    expect(tags.map((t) => t.name).sort()).toEqual(["t0", "t1", "t2"]);
  });
});
