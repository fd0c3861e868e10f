/**
 * The config repository's one writer and its recovery: committed content only, stale git locks and a
 * dirty working tree recovered at start, symbolic links refused, compare-and-swap of the branch.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { simpleGit } from "simple-git";
import { openCatalog } from "./catalog";
import { ensureConfigRepo } from "./repo";
import { commitAsOther, tempCatalog, validComponent, yamlOf, type TempRepo } from "@/test-support/catalog/temp-catalog";
import { RefMovedError } from "../scm/git";
import { CatalogWriteError } from "./errors";

let repo: TempRepo | undefined;
const extra: string[] = [];
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
  for (const d of extra.splice(0)) await rm(d, { recursive: true, force: true });
});

const author = { id: "alice", name: "Alice Martin", email: "alice@example.com" };

/** Opens the catalog again on the same data directory, as a new portal process does. */
async function reopen(r: TempRepo) {
  const again = await ensureConfigRepo({ dataDir: path.join(r.root, "data"), shippedDir: path.join(r.root, "shipped") });
  return openCatalog({ repo: again });
}

async function porcelain(dir: string): Promise<string> {
  return (await simpleGit(dir).raw(["status", "--porcelain", "--untracked-files=all"])).trim();
}

describe("recovery at start", () => {
  it("removes an orphaned index.lock and ref lock, resets a dirty and staged working tree, and the next write succeeds", async () => {
    repo = await tempCatalog({ "a.yaml": yamlOf(validComponent("a")), "b.yaml": yamlOf(validComponent("b")) });
    const dir = repo.catalog.repo.dir;
    // What a process killed in the middle of git commands leaves behind.
    await writeFile(path.join(dir, ".git", "index.lock"), "");
    await writeFile(path.join(dir, ".git", "refs", "heads", "main.lock"), "");
    await writeFile(path.join(dir, "components", "a.yaml"), yamlOf({ ...validComponent("a"), metadata: { name: "a", displayName: "Never committed" } }));
    await writeFile(path.join(dir, "components", "half.yaml"), "apiVersion: platform.example.com/v1al");
    const staged = simpleGit(dir);
    await rm(path.join(dir, ".git", "index.lock"));
    await writeFile(path.join(dir, "components", "b.yaml"), yamlOf({ ...validComponent("b"), metadata: { name: "b", displayName: "Staged only" } }));
    await staged.add("components/b.yaml");
    await writeFile(path.join(dir, ".git", "index.lock"), "");

    const catalog = await reopen(repo);
    expect(existsSync(path.join(dir, ".git", "index.lock"))).toBe(false);
    expect(existsSync(path.join(dir, ".git", "refs", "heads", "main.lock"))).toBe(false);
    expect(await porcelain(dir)).toBe("");
    expect(catalog.get("a")?.component.metadata.displayName).toBe("Display a");
    expect(catalog.get("b")?.component.metadata.displayName).toBe("Display b");
    expect(catalog.errors).toEqual([]);
    const r = await catalog.update("a", { mode: "merge", body: { metadata: { displayName: "After recovery" } }, ifMatch: catalog.get("a")!.etag, author });
    expect(r).toMatchObject({ ok: true, changed: true });
    expect(await readFile(path.join(dir, "components", "a.yaml"), "utf8")).toContain("After recovery");
    expect(await porcelain(dir)).toBe("");
  });

  it("waits for a git process still working in the repository before taking its lock away", async () => {
    repo = await tempCatalog({ "a.yaml": yamlOf(validComponent("a")) });
    const dir = repo.catalog.repo.dir;
    // A git process (here: waiting on its standard input) whose working directory is the repository, then its lock.
    const busy = spawn("git", ["hash-object", "--stdin"], { cwd: dir, stdio: ["pipe", "ignore", "ignore"] });
    await new Promise((r) => setTimeout(r, 100));
    await writeFile(path.join(dir, ".git", "index.lock"), "");
    const opening = reopen(repo);
    await new Promise((r) => setTimeout(r, 400));
    expect(existsSync(path.join(dir, ".git", "index.lock"))).toBe(true);
    busy.stdin.end("x");
    const catalog = await opening;
    expect(existsSync(path.join(dir, ".git", "index.lock"))).toBe(false);
    expect(catalog.size).toBe(1);
  });

  it("a lock older than every git process still working there is stale: removed at once", async () => {
    repo = await tempCatalog({ "a.yaml": yamlOf(validComponent("a")) });
    const dir = repo.catalog.repo.dir;
    const lock = path.join(dir, ".git", "refs", "heads", "main.lock");
    await writeFile(lock, "");
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(lock, minuteAgo, minuteAgo);
    const busy = spawn("git", ["hash-object", "--stdin"], { cwd: dir, stdio: ["pipe", "ignore", "ignore"] });
    try {
      const catalog = await reopen(repo);
      expect(existsSync(lock)).toBe(false);
      expect(busy.exitCode).toBeNull();
      expect((await catalog.update("a", { mode: "merge", body: { metadata: { displayName: "Written" } }, ifMatch: "*", author })).ok).toBe(true);
    } finally {
      busy.stdin.end("x");
    }
  });
});

describe("committed content only", () => {
  it("never serves a file modified or staged in the working tree, in a running process either", async () => {
    repo = await tempCatalog({ "shop.yaml": yamlOf(validComponent("shop")), "other.yaml": yamlOf(validComponent("other")) });
    const dir = repo.catalog.repo.dir;
    const etag = repo.catalog.get("shop")!.etag;
    await writeFile(path.join(dir, "components", "shop.yaml"), yamlOf({ ...validComponent("shop"), metadata: { name: "shop", displayName: "Uncommitted" } }));
    await writeFile(path.join(dir, "components", "other.yaml"), yamlOf({ ...validComponent("other"), metadata: { name: "other", displayName: "Staged" } }));
    await simpleGit(dir).add("components/other.yaml");
    await writeFile(path.join(dir, "components", "new.yaml"), yamlOf(validComponent("new")));
    const summary = await repo.catalog.refresh();
    expect(summary.components).toBe(2);
    expect(repo.catalog.get("shop")?.component.metadata.displayName).toBe("Display shop");
    expect(repo.catalog.get("other")?.component.metadata.displayName).toBe("Display other");
    expect(repo.catalog.get("new")).toBeUndefined();
    expect((await repo.catalog.refreshOne("shop"))?.stale).toBe(false);
    expect(repo.catalog.get("shop")?.component.metadata.displayName).toBe("Display shop");
    const source = await repo.catalog.source("shop");
    expect(source?.text).not.toContain("Uncommitted");
    expect(source?.etag).toBe(etag);
    // A write starts from the commit, not from the edited file.
    const r = await repo.catalog.update("shop", { mode: "merge", body: { spec: { dependencies: { redis: true } } }, ifMatch: etag, author });
    expect(r.ok).toBe(true);
    const committed = await simpleGit(dir).show(["HEAD:components/shop.yaml"]);
    expect(committed).toContain("Display shop");
    expect(committed).not.toContain("Uncommitted");
  });
});

describe("symbolic links", () => {
  it("a committed link to a file outside the repository is a load error, never served", async () => {
    const outside = await mkdtemp(path.join(tmpdir(), "catalog-outside-"));
    extra.push(outside);
    // Followed, this link would load as a perfectly valid record.
    await writeFile(path.join(outside, "stolen.yaml"), yamlOf(validComponent("stolen")));
    repo = await tempCatalog({ "ok.yaml": yamlOf(validComponent("ok")) });
    const dir = repo.catalog.repo.dir;
    await symlink("/etc/passwd", path.join(dir, "components", "passwd.yaml"));
    await symlink(path.join(outside, "stolen.yaml"), path.join(dir, "components", "stolen.yaml"));
    await symlink("ok.yaml", path.join(dir, "components", "inside.yaml"));
    const git = simpleGit(dir);
    await git.add(".");
    await git.commit("links");
    await repo.catalog.refresh();
    expect(repo.catalog.entries().map((e) => e.name)).toEqual(["ok"]);
    const errors = repo.catalog.errors;
    expect(errors.map((e) => e.file)).toEqual(["components/inside.yaml", "components/passwd.yaml", "components/stolen.yaml"]);
    for (const e of errors) expect(e).toEqual({ file: e.file, path: "", message: expect.stringMatching(/symbolic link .*never follows/) });
    expect(errors[1].message).toContain("/etc/passwd");
  });

  it("a records folder that is a link out of the repository is a load error", async () => {
    const outside = await mkdtemp(path.join(tmpdir(), "catalog-outside-"));
    extra.push(outside);
    await writeFile(path.join(outside, "stolen.yaml"), yamlOf(validComponent("stolen")));
    repo = await tempCatalog({ "ok.yaml": yamlOf(validComponent("ok")) });
    const dir = repo.catalog.repo.dir;
    const git = simpleGit(dir);
    await git.rm(["-r", "-q", "components"]);
    await symlink(outside, path.join(dir, "components"));
    await git.add(".");
    await git.commit("records folder is a link");
    await repo.catalog.refresh();
    expect(repo.catalog.get("stolen")).toBeUndefined();
    expect(repo.catalog.errors).toEqual([{ file: "components", path: "", message: expect.stringMatching(/symbolic link .*never follows/) }]);
  });

  it("the config views refuse a link too", async () => {
    repo = await tempCatalog({ "ok.yaml": yamlOf(validComponent("ok")) });
    const dir = repo.catalog.repo.dir;
    await mkdir(path.join(dir, "config", "ok"), { recursive: true });
    await symlink("/etc/passwd", path.join(dir, "config", "ok", "dev.yaml"));
    const git = simpleGit(dir);
    await git.add(".");
    await git.commit("config link");
    await expect(repo.catalog.store.readText("config/ok/dev.yaml")).rejects.toMatchObject({ code: "invalid" });
  });
});

describe("compare-and-swap of the branch", () => {
  it("update-ref with a stale expected value is refused (a source-control conflict)", async () => {
    repo = await tempCatalog({ "a.yaml": yamlOf(validComponent("a")) });
    const stale = (await repo.catalog.store.head())!;
    const other = await repo.commit({ "components/b.yaml": yamlOf(validComponent("b")) });
    const mine = await commitAsOther(repo.catalog.repo.dir, { "components/c.yaml": yamlOf(validComponent("c")) });
    const err = await repo.catalog.store.git.casRef("refs/heads/main", other, stale).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RefMovedError);
    expect((err as RefMovedError).code).toBe("conflict");
    expect(await repo.catalog.store.head()).toBe(mine);
  });

  it("a change built on a head another process moved is built again on the new head: an If-Match that no longer holds answers 412, none is lost", async () => {
    repo = await tempCatalog({ "shop.yaml": yamlOf(validComponent("shop")), "cart.yaml": yamlOf(validComponent("cart")) });
    const store = repo.catalog.store;
    const original = store.readText.bind(store);
    let interfered = false;
    // Another process commits between this writer's read and its compare-and-swap.
    store.readText = async (p, commit) => {
      const text = await original(p, commit);
      if (!interfered) {
        interfered = true;
        await commitAsOther(repo!.catalog.repo.dir, { [p]: (text ?? "") + "# edited elsewhere\n" });
      }
      return text;
    };
    const etag = repo.catalog.get("shop")!.etag;
    const r = await repo.catalog.update("shop", { mode: "merge", body: { metadata: { displayName: "Mine" } }, ifMatch: etag, author }).catch((e: unknown) => e);
    expect(r).toBeInstanceOf(CatalogWriteError);
    expect(r).toMatchObject({ code: "precondition-failed" });
    // Unconditional: rebuilt on the new head, so the other process's line stays.
    interfered = false;
    const w = await repo.catalog.update("cart", { mode: "merge", body: { metadata: { displayName: "Mine" } }, ifMatch: "*", author });
    expect(w).toMatchObject({ ok: true, changed: true });
    const text = await simpleGit(repo.catalog.repo.dir).show(["HEAD:components/cart.yaml"]);
    expect(text).toContain("# edited elsewhere");
    expect(text).toContain("displayName: Mine");
  });
});
