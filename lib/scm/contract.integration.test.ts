/**
 * The provider contract (test-support/scm/contract-suite.ts) against the local adapter (merge requests in
 * memory) and the gitlab adapter talking to the fake GitLab server (backed by real bare
 * repositories). The local adapter over the portal database runs it in
 * lib/portal/gitops/merge-request-store.integration.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { LocalScmProvider } from "./local";
import { memoryMergeRequestStore } from "./merge-request-store";
import { GitLabScmProvider } from "./gitlab";
import { RepoGit } from "./git";
import { startFakeGitLab, type FakeGitLab } from "@/test-support/scm/fake-gitlab";
import { author, expectScmError, providerContract, type Harness } from "@/test-support/scm/contract-suite";

providerContract([
  [
    "local (memory)",
    async () => {
      const root = await mkdtemp(path.join(tmpdir(), "scm-local-"));
      const provider = new LocalScmProvider({ root, store: memoryMergeRequestStore() });
      return { provider, seed: provider, close: () => rm(root, { recursive: true, force: true }) };
    },
  ],
  [
    "gitlab (fake server)",
    async (): Promise<Harness> => {
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
]);

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

  it("reads each listed request's conflicts from GitLab's merge status, and asks it to check again", async () => {
    const item = (iid: number, fields: Record<string, unknown>) => ({
      iid,
      title: `!${iid}`,
      description: "",
      state: "opened",
      source_branch: `change-${iid}`,
      target_branch: "main",
      author: { username: "portal-bot" },
      web_url: `${fake.url}/acme/web/-/merge_requests/${iid}`,
      created_at: "2026-12-01T10:00:00Z",
      updated_at: "2026-12-01T10:00:00Z",
      merged_at: null,
      merge_commit_sha: null,
      ...fields,
    });
    fake.requests.length = 0;
    fake.failNext({
      status: 200,
      body: [
        item(1, { has_conflicts: true, merge_status: "cannot_be_merged", detailed_merge_status: "conflict" }),
        // Being checked again after a conflict: still refused until the check says otherwise.
        item(2, { has_conflicts: false, merge_status: "cannot_be_merged_recheck", detailed_merge_status: "checking" }),
        item(3, { has_conflicts: false, merge_status: "unchecked", detailed_merge_status: "unchecked" }),
        item(4, { has_conflicts: false, merge_status: "can_be_merged", detailed_merge_status: "mergeable" }),
        item(5, { state: "closed", has_conflicts: true, merge_status: "cannot_be_merged" }),
      ],
    });
    const list = await provider().listMergeRequests("acme/web", { state: "all" });
    expect(list.map((m) => [m.iid, m.hasConflicts])).toEqual([
      [1, true],
      [2, true],
      [3, false],
      [4, false],
      [5, false],
    ]);
    expect(fake.requests[0].path).toMatch(/[?&]with_merge_status_recheck=true\b/);
  });

  it("reads every page of a list, following GitLab's Link header", async () => {
    // 105 tags in one git command (creating each through the provider would start ~500 git processes).
    const sha = await fake.backend.resolveRef("acme/web", "main");
    const refs = Array.from({ length: 105 }, (_, i) => `create refs/tags/t${String(i).padStart(3, "0")} ${sha}\n`).join("");
    await new RepoGit(path.join(root, "acme", "web")).raw(["update-ref", "--stdin"], undefined, refs);
    fake.requests.length = 0;
    const tags = await provider().listTags("acme/web");
    expect(tags).toHaveLength(105);
    expect(new Set(tags.map((t) => t.name)).size).toBe(105);
    const pages = fake.requests.filter((r) => r.path.startsWith("/api/v4/projects/acme%2Fweb/repository/tags"));
    expect(pages).toHaveLength(2);
    expect(pages[1].path).toMatch(/[?&]page=2\b/);
  });
});
