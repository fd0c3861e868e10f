/**
 * The provider contract: one suite every ScmProvider must pass. lib/scm runs it against the local
 * adapter (memory store) and the gitlab adapter talking to the fake GitLab server; the portal runs it
 * against the local adapter with its database store (lib/portal/gitops/merge-request-store.integration.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalScmProvider } from "../../lib/scm/local";
import { ScmError, type ScmProvider } from "../../lib/scm/types";

export const author = { name: "Alice Martin", email: "alice.martin@example.com" };

export interface Harness {
  provider: ScmProvider;
  /** Creates and seeds repositories behind the provider. */
  seed: LocalScmProvider;
  close(): Promise<void>;
}

export async function expectScmError(p: Promise<unknown>, code: ScmError["code"]): Promise<ScmError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ScmError);
  expect((e as ScmError).code).toBe(code);
  return e as ScmError;
}

export function providerContract(targets: Array<[string, () => Promise<Harness>]>): void {
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
    expect((await p.getMergeRequestDiff("team/gamma", mr.iid)).hasConflicts).toBe(true);
    const err = await expectScmError(p.mergeMergeRequest("team/gamma", mr.iid), "conflict");
    expect(err.message).toMatch(/conflict|cannot be merged/);
    expect(await p.readFile("team/gamma", "README.md")).toBe("main\n");
    expect((await p.getMergeRequest("team/gamma", mr.iid))?.state).toBe("opened");
  });

  it("lists whether each open request still merges cleanly, following its branches as they move", async () => {
    const repo = "other/merges";
    await h.seed.createRepository(repo);
    await h.seed.commitFiles(repo, { branch: "main", message: "Start", author, files: [{ path: "app.yaml", content: "level: info\n" }] });
    await p.commitFiles(repo, { branch: "clash", message: "Debug", author, files: [{ path: "app.yaml", content: "level: debug\n" }] });
    await p.commitFiles(repo, { branch: "clean", message: "Other file", author, files: [{ path: "other.yaml", content: "x: 1\n" }] });
    const clash = await p.openMergeRequest(repo, { sourceBranch: "clash", title: "Debug" });
    const clean = await p.openMergeRequest(repo, { sourceBranch: "clean", title: "Other" });
    const listed = async () => Object.fromEntries((await p.listMergeRequests(repo, { state: "all" })).map((m) => [m.iid, m.hasConflicts]));
    expect(await listed()).toEqual({ [clash.iid]: false, [clean.iid]: false });

    // The target changes the line the request changes: the list says so, as the request and its diff do.
    await h.seed.commitFiles(repo, { branch: "main", message: "Warn", author, files: [{ path: "app.yaml", content: "level: warn\n" }] });
    expect(await listed()).toEqual({ [clash.iid]: true, [clean.iid]: false });
    expect((await p.getMergeRequest(repo, clash.iid))?.hasConflicts).toBe(true);
    expect((await p.getMergeRequestDiff(repo, clash.iid)).hasConflicts).toBe(true);
    await expectScmError(p.mergeMergeRequest(repo, clash.iid), "conflict");

    // The source makes the same change as the target: it merges cleanly again.
    await p.commitFiles(repo, { branch: "clash", message: "Warn too", author, files: [{ path: "app.yaml", content: "level: warn\n" }] });
    expect(await listed()).toEqual({ [clash.iid]: false, [clean.iid]: false });

    // Decided requests conflict with nothing.
    await p.mergeMergeRequest(repo, clean.iid);
    await h.seed.commitFiles(repo, { branch: "main", message: "Error", author, files: [{ path: "app.yaml", content: "level: error\n" }] });
    expect(await listed()).toEqual({ [clash.iid]: true, [clean.iid]: false });
    await p.closeMergeRequest(repo, clash.iid);
    expect(await listed()).toEqual({ [clash.iid]: false, [clean.iid]: false });
  });

  it("shows what a merge request changes, comments kept, and whether it still merges cleanly", async () => {
    const before = "# Settings of alpha\nreplicas: 2 # scaled by hand\nlogLevel: info\n";
    await p.commitFiles("team/alpha", { branch: "main", message: "Settings", author, files: [{ path: "config/settings.yaml", content: before }] });
    await p.commitFiles("team/alpha", {
      branch: "tune",
      message: "Tune",
      author,
      files: [
        { path: "config/settings.yaml", content: before.replace("logLevel: info", "logLevel: debug") },
        { path: "config/new.yaml", content: "enabled: true\n" },
      ],
    });
    const mr = await p.openMergeRequest("team/alpha", { sourceBranch: "tune", title: "Tune settings" });
    const changes = await p.getMergeRequestDiff("team/alpha", mr.iid);
    expect(changes.hasConflicts).toBe(false);
    const byPath = Object.fromEntries(changes.files.map((f) => [f.newPath, f]));
    expect(Object.keys(byPath).sort()).toEqual(["config/new.yaml", "config/settings.yaml"]);
    expect(byPath["config/settings.yaml"]).toMatchObject({ oldPath: "config/settings.yaml", newFile: false, deletedFile: false });
    expect(byPath["config/settings.yaml"].diff).toMatch(/^@@ /);
    expect(byPath["config/settings.yaml"].diff).toContain("-logLevel: info\n+logLevel: debug");
    expect(byPath["config/settings.yaml"].diff).toContain(" replicas: 2 # scaled by hand");
    expect(byPath["config/new.yaml"]).toMatchObject({ newFile: true, deletedFile: false });
    expect(byPath["config/new.yaml"].diff).toContain("+enabled: true");

    // The target moves on with a change to the same line: the request no longer merges cleanly.
    await p.commitFiles("team/alpha", { branch: "main", message: "Quieter", author, files: [{ path: "config/settings.yaml", content: before.replace("logLevel: info", "logLevel: warn") }] });
    expect((await p.getMergeRequestDiff("team/alpha", mr.iid)).hasConflicts).toBe(true);
    await expectScmError(p.mergeMergeRequest("team/alpha", mr.iid), "conflict");
    // Changes are still those of the branch since it left main.
    expect((await p.getMergeRequestDiff("team/alpha", mr.iid)).files).toHaveLength(2);
    await p.closeMergeRequest("team/alpha", mr.iid);
    await expectScmError(p.getMergeRequestDiff("team/alpha", 999), "not_found");
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
  // Each case starts a hundred git processes or more; on a busy two-core machine one takes up to a few
  // hundred milliseconds to start, beyond the default 30 s of a case.
  }, 120_000);
}
