/** Git-level guarantees of the plumbing: merges are idempotent, refs move only by compare-and-swap. */
import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { RefMovedError, RepoGit } from "./git";
import { LocalScmProvider } from "./local";
import { memoryMergeRequestStore } from "./merge-request-store";

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

const author = { name: "Alice Martin", email: "alice@example.com" };

async function repoWithBranch(): Promise<{ git: RepoGit; provider: LocalScmProvider }> {
  root = await mkdtemp(path.join(tmpdir(), "scm-git-"));
  const provider = new LocalScmProvider({ root, store: memoryMergeRequestStore() });
  await provider.createRepository("team/app");
  await provider.commitFiles("team/app", { branch: "main", message: "init", author, files: [{ path: "README.md", content: "hi\n" }] });
  await provider.commitFiles("team/app", { branch: "feature", message: "feature", author, files: [{ path: "f.txt", content: "f\n" }] });
  await provider.commitFiles("team/app", { branch: "main", message: "main moves on", author, files: [{ path: "m.txt", content: "m\n" }] });
  return { git: new RepoGit(path.join(root, "team", "app")), provider };
}

async function commitCount(git: RepoGit, ref: string): Promise<number> {
  return Number((await git.raw(["rev-list", "--count", ref])).trim());
}

describe("merge", () => {
  it("merging a source already contained in the target makes no commit and answers the merge that brought it in", async () => {
    const { git } = await repoWithBranch();
    const first = await git.merge({ target: "main", source: "feature", message: "Merge feature" });
    expect(first.created).toBe(true);
    const count = await commitCount(git, "main");
    const again = await git.merge({ target: "main", source: "feature", message: "Merge feature again" });
    expect(again).toEqual({ sha: first.sha, created: false });
    expect(await commitCount(git, "main")).toBe(count);
    expect(await git.resolve("main")).toBe(first.sha);
  });

  it("a merge request whose branch was merged but whose record was never written reads as merged, and merging it makes no second commit", async () => {
    const { git, provider } = await repoWithBranch();
    const mr = await provider.openMergeRequest("team/app", { sourceBranch: "feature", title: "Feature" });
    // The merge happened in git, then the process died before the record said so.
    const { sha } = await git.merge({ target: "main", source: "feature", message: "Merge feature" });
    const count = await commitCount(git, "main");
    const read = await provider.getMergeRequest("team/app", mr.iid);
    expect(read).toMatchObject({ state: "merged", mergeCommitSha: sha });
    expect(await provider.listMergeRequests("team/app")).toEqual([]);
    expect(await commitCount(git, "main")).toBe(count);
  });

  it("mergeMergeRequest on such a record marks it merged without a commit", async () => {
    const { git, provider } = await repoWithBranch();
    const mr = await provider.openMergeRequest("team/app", { sourceBranch: "feature", title: "Feature" });
    await git.merge({ target: "main", source: "feature", message: "Merge feature" });
    const count = await commitCount(git, "main");
    // Straight to the merge, without a read first.
    const merged = await provider.mergeMergeRequest("team/app", mr.iid);
    expect(merged.state).toBe("merged");
    expect(await commitCount(git, "main")).toBe(count);
    const merges = (await git.raw(["rev-list", "--merges", "main"])).trim().split("\n").filter(Boolean);
    expect(merges).toHaveLength(1);
  });
});

describe("refs", () => {
  it("a compare-and-swap with a stale expected value is refused and moves nothing", async () => {
    const { git } = await repoWithBranch();
    const main = (await git.resolve("main"))!;
    const feature = (await git.resolve("feature"))!;
    const err = await git.casRef("refs/heads/main", feature, feature).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RefMovedError);
    expect((err as RefMovedError).code).toBe("conflict");
    expect(await git.resolve("main")).toBe(main);
  });
});
