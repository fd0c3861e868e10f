/**
 * Every writer of the config repository (catalog edits, persistent-config commits, merges of merge
 * requests through the local provider) goes through one writer: in parallel, none is lost, the
 * history is one first-parent line, and the working tree ends equal to the branch.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { tempCatalog, validComponent, yamlOf, type TempRepo } from "@/test-support/catalog/temp-catalog";
import { openCatalog } from "../../catalog/catalog";
import { ensureConfigRepo } from "../../catalog/repo";
import { memoryMergeRequestStore } from "../../scm/merge-request-store";
import { ConfigRepository, configFilePath } from "./config-repo";
import { LOCAL_CONFIG_REPO, localConfigProvider } from "./providers";

let repo: TempRepo | undefined;
let root: string | undefined;
afterEach(async () => {
  await repo?.cleanup();
  if (root) await rm(root, { recursive: true, force: true });
  repo = undefined;
  root = undefined;
});

const olga = { id: "olga", name: "Olga Operator", email: "olga@example.com" };

async function lines(dir: TempRepo, args: string[]): Promise<string[]> {
  return (await dir.catalog.repo.git.raw(args)).trim().split("\n").filter(Boolean);
}

describe("one writer of the config repository", () => {
  it("catalog updates, config commits and merges in parallel: a first-parent line with every change, none lost", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 8; i++) files[`svc-${i}.yaml`] = yamlOf(validComponent(`svc-${i}`));
    repo = await tempCatalog(files);
    root = await mkdtemp(path.join(tmpdir(), "one-writer-"));
    const provider = localConfigProvider(repo.catalog, { root, store: memoryMergeRequestStore() });
    const config = new ConfigRepository(repo.catalog, { provider, repo: LOCAL_CONFIG_REPO });
    const base = (await repo.catalog.store.head())!;
    const proposals = [];
    for (let i = 0; i < 4; i++) {
      proposals.push(await config.propose({ scope: `svc-${i}`, files: [{ path: configFilePath(`svc-${i}`, "staging"), content: `PROPOSED: ${i}\n` }], title: `Proposal ${i}`, description: "", author: olga }));
    }

    const results = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) =>
        repo!.catalog.update(`svc-${i}`, { mode: "merge", body: { metadata: { displayName: `Edited ${i}` } }, ifMatch: "*", author: olga }).then((r) => ({ kind: "update", ok: r.ok })),
      ),
      ...Array.from({ length: 8 }, (_, i) => config.commit([{ path: configFilePath(`svc-${i}`, "dev"), content: `COMMITTED: ${i}\n` }], `Config ${i}`, olga).then((c) => ({ kind: "commit", ok: Boolean(c) }))),
      ...proposals.map((mr) => provider.mergeMergeRequest(LOCAL_CONFIG_REPO, mr.iid).then((m) => ({ kind: "merge", ok: m.state === "merged" }))),
    ]);
    expect(results.filter((r) => !r.ok)).toEqual([]);

    // One first-parent line from the base: 8 + 8 commits and 4 merges, each merge bringing its branch.
    const line = await lines(repo, ["rev-list", "--first-parent", `${base}..main`]);
    expect(line).toHaveLength(20);
    expect(await lines(repo, ["rev-list", "--merges", `${base}..main`])).toHaveLength(4);
    for (const mr of proposals) {
      const tip = (await repo.catalog.repo.git.raw(["rev-parse", mr.sourceBranch])).trim();
      expect((await repo.catalog.repo.git.raw(["merge-base", "--is-ancestor", tip, "main"]).then(() => true, () => false))).toBe(true);
    }
    for (let i = 0; i < 8; i++) {
      expect(repo.catalog.get(`svc-${i}`)?.component.metadata.displayName).toBe(`Edited ${i}`);
      expect(await config.readText(configFilePath(`svc-${i}`, "dev"))).toBe(`COMMITTED: ${i}\n`);
    }
    for (let i = 0; i < 4; i++) expect(await config.readText(configFilePath(`svc-${i}`, "staging"))).toBe(`PROPOSED: ${i}\n`);
    expect((await repo.catalog.repo.git.raw(["status", "--porcelain", "--untracked-files=all"])).trim()).toBe("");
  });

  it("two processes' writers on one repository: each lost race is rebuilt on the new head, none lost", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 6; i++) files[`svc-${i}.yaml`] = yamlOf(validComponent(`svc-${i}`));
    repo = await tempCatalog(files);
    // A second catalog on the same folder has its own lock, as another process would.
    const other = await openCatalog({ repo: await ensureConfigRepo({ dataDir: path.join(repo.root, "data"), shippedDir: path.join(repo.root, "shipped") }) });
    const base = (await repo.catalog.store.head())!;
    const writers = [repo.catalog, other];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        writers[i % 2].update(`svc-${i % 6}`, { mode: "merge", body: { spec: { owners: [{ user: `user-${i}` }] } }, ifMatch: "*", author: { id: `u${i}`, name: `User ${i}` } }),
      ),
    );
    expect(results.map((r) => r.ok)).toEqual(Array(12).fill(true));
    expect(await lines(repo, ["rev-list", "--first-parent", `${base}..main`])).toHaveLength(12);
    const authors = new Set(await lines(repo, ["log", "--format=%an", `${base}..main`]));
    expect(authors.size).toBe(12);
  });
});
