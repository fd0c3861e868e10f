import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { simpleGit } from "simple-git";
import { ensureConfigRepo, authorString } from "./repo";
import { openCatalog } from "./catalog";
import { CatalogWriteError } from "./errors";
import { createConfigRemote } from "@/test-support/catalog/config-remote";
import { commitAsOther, validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function remoteWith(files: Record<string, string>): Promise<{ bare: string; work: string }> {
  root = await mkdtemp(path.join(tmpdir(), "catalog-remote-"));
  return createConfigRemote(root, files);
}

describe("config repository", () => {
  it("embedded default: copies the shipped folder once and commits it", async () => {
    root = await mkdtemp(path.join(tmpdir(), "catalog-embedded-"));
    const repo = await ensureConfigRepo({ dataDir: path.join(root, "data"), shippedDir: path.resolve("config/components") });
    expect((await repo.git.log()).total).toBe(1);
    const catalog = await openCatalog({ repo });
    expect(catalog.size).toBeGreaterThanOrEqual(25);
    expect(catalog.errors).toEqual([]);
    // A second start reuses the repository (no new commit; edits kept).
    const again = await ensureConfigRepo({ dataDir: path.join(root, "data"), shippedDir: path.resolve("config/components") });
    expect((await again.git.log()).total).toBe(1);
    expect(again.dir).toBe(repo.dir);
  });

  it("CONFIG_REPO_URL: clones, pushes accepted writes, and refresh pulls others' changes", async () => {
    const { bare, work } = await remoteWith({ "a.yaml": yamlOf(validComponent("a")) });
    const repo = await ensureConfigRepo({ dataDir: path.join(root!, "data"), shippedDir: "/nonexistent", remoteUrl: bare });
    expect(repo.remote).toBe(true);
    const catalog = await openCatalog({ repo });
    expect(catalog.entries().map((e) => e.name)).toEqual(["a"]);

    const r = await catalog.update("a", { mode: "merge", body: { metadata: { displayName: "Pushed" } }, ifMatch: "*", author: { id: "u1", name: "User One" } });
    expect(r.ok).toBe(true);
    expect((await simpleGit(bare).log({ maxCount: 1 })).latest?.author_name).toBe("User One");

    // Someone else pushes a new record; a refresh pulls it.
    const up = simpleGit(work);
    await up.pull("origin", "main");
    await writeFile(path.join(work, "components", "b.yaml"), yamlOf(validComponent("b")));
    await up.add(".");
    await up.commit("add b");
    await up.push("origin", "main");
    const summary = await catalog.refresh();
    expect(summary.pull?.ok).toBe(true);
    expect(catalog.entries().map((e) => e.name)).toEqual(["a", "b"]);
    expect(await readFile(path.join(repo.dir, "components", "a.yaml"), "utf8")).toContain("Pushed");
  });

  it("a push refused because the remote moved on: the change is built again on the remote's head, under its If-Match", async () => {
    const { bare, work } = await remoteWith({ "a.yaml": yamlOf(validComponent("a")), "b.yaml": yamlOf(validComponent("b")) });
    const repo = await ensureConfigRepo({ dataDir: path.join(root!, "data"), shippedDir: "/nonexistent", remoteUrl: bare });
    const catalog = await openCatalog({ repo });
    const loaded = catalog.get("a")!.etag;
    const up = simpleGit(work);
    await writeFile(path.join(work, "components", "a.yaml"), yamlOf({ ...validComponent("a"), metadata: { name: "a", displayName: "Upstream" } }));
    await up.add(".");
    await up.commit("upstream edit");
    await up.push("origin", "main");
    const upstream = (await simpleGit(bare).raw(["rev-parse", "main"])).trim();

    // The record changed upstream since it was loaded: refused, nothing written.
    const stale = await catalog.update("a", { mode: "merge", body: { metadata: { displayName: "Mine" } }, ifMatch: loaded, author: { id: "u1", name: "User One" } }).catch((e: unknown) => e);
    expect(stale).toMatchObject({ code: "precondition-failed" });
    expect((await simpleGit(bare).raw(["rev-parse", "main"])).trim()).toBe(upstream);

    // Another record: accepted on top of the upstream edit, which is kept.
    const other = await catalog.update("b", { mode: "merge", body: { metadata: { displayName: "Mine" } }, ifMatch: catalog.get("b")!.etag, author: { id: "u1", name: "User One" } });
    expect(other.changed).toBe(true);
    expect((await simpleGit(bare).raw(["rev-parse", "main^"])).trim()).toBe(upstream);
    expect((await simpleGit(bare).raw(["show", "main:components/a.yaml"]))).toContain("Upstream");
  });

  it("a push the remote rejects (a hook) rolls the change back and answers 409", async () => {
    const { bare } = await remoteWith({ "a.yaml": yamlOf(validComponent("a")) });
    const repo = await ensureConfigRepo({ dataDir: path.join(root!, "data"), shippedDir: "/nonexistent", remoteUrl: bare });
    const catalog = await openCatalog({ repo });
    await writeFile(path.join(bare, "hooks", "pre-receive"), "#!/bin/sh\necho 'changes are frozen' >&2\nexit 1\n", { mode: 0o755 });
    const before = await readFile(path.join(repo.dir, "components", "a.yaml"), "utf8");
    const r = await catalog.update("a", { mode: "merge", body: { metadata: { displayName: "Mine" } }, ifMatch: "*", author: { id: "u1", name: "User One" } }).catch((e: unknown) => e);
    expect(r).toBeInstanceOf(CatalogWriteError);
    expect(r).toMatchObject({ code: "conflict" });
    expect(await readFile(path.join(repo.dir, "components", "a.yaml"), "utf8")).toBe(before);
    expect((await repo.git.log()).total).toBe(1);
    expect(catalog.get("a")?.component.metadata.displayName).toBe("Display a");
  });

  it("a change committed but never pushed (the process died in between) is pushed at the next start", async () => {
    const { bare } = await remoteWith({ "a.yaml": yamlOf(validComponent("a")) });
    const dataDir = path.join(root!, "data");
    const repo = await ensureConfigRepo({ dataDir, shippedDir: "/nonexistent", remoteUrl: bare });
    await openCatalog({ repo });
    const unpushed = await commitAsOther(repo.dir, { "components/b.yaml": yamlOf(validComponent("b")) });
    const catalog = await openCatalog({ repo: await ensureConfigRepo({ dataDir, shippedDir: "/nonexistent", remoteUrl: bare }) });
    expect((await simpleGit(bare).raw(["rev-parse", "main"])).trim()).toBe(unpushed);
    expect(catalog.entries().map((e) => e.name)).toEqual(["a", "b"]);
  });

  it("an unpushed change the remote no longer accepts is dropped at the next start; the remote's history is served", async () => {
    const { bare, work } = await remoteWith({ "a.yaml": yamlOf(validComponent("a")) });
    const dataDir = path.join(root!, "data");
    const repo = await ensureConfigRepo({ dataDir, shippedDir: "/nonexistent", remoteUrl: bare });
    await openCatalog({ repo });
    await commitAsOther(repo.dir, { "components/mine.yaml": yamlOf(validComponent("mine")) });
    const up = simpleGit(work);
    await writeFile(path.join(work, "components", "theirs.yaml"), yamlOf(validComponent("theirs")));
    await up.add(".");
    await up.commit("theirs");
    await up.push("origin", "main");
    const catalog = await openCatalog({ repo: await ensureConfigRepo({ dataDir, shippedDir: "/nonexistent", remoteUrl: bare }) });
    expect(catalog.entries().map((e) => e.name)).toEqual(["a", "theirs"]);
    expect((await simpleGit(repo.dir).raw(["status", "--porcelain", "--untracked-files=all"])).trim()).toBe("");
    const r = await catalog.update("theirs", { mode: "merge", body: { metadata: { displayName: "Next write" } }, ifMatch: "*", author: { id: "u1", name: "User One" } });
    expect(r.ok).toBe(true);
    expect((await simpleGit(bare).log({ maxCount: 1 })).latest?.author_name).toBe("User One");
  });

  it("author strings are safe for git", () => {
    expect(authorString({ id: "x", name: "Eve <evil>\n", email: "e@x" })).toBe("Eve evil <e@x>");
    expect(authorString({ id: "bob smith", name: "" })).toBe("bob smith <bob_smith@users.portal.invalid>");
  });
});
