import { afterEach, describe, expect, it, vi } from "vitest";
import { SCORECARD_RULES_FILE } from "./scorecards";
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Catalog } from "./catalog";
import { ensureConfigRepo } from "./repo";
import { LOADER_RULES, SNAPSHOT_VERSION, snapshotFileFor } from "./snapshot";
import { tempCatalog, validComponent, yamlOf, type TempRepo } from "@/test-support/catalog/temp-catalog";

let repo: TempRepo | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await repo?.catalog.flushSnapshot();
  await repo?.cleanup();
  repo = undefined;
});

const author = { id: "alice", name: "Alice Martin" };

/** Everything a reader of the catalog sees: records (stale ones with their last valid version) and load errors. */
function served(catalog: Catalog) {
  return { entries: catalog.entries(), errors: catalog.errors, size: catalog.size };
}

/** Counts what the catalog reads from the repository: blobs (by id), folder listings and single paths. */
function spyReads(catalog: Catalog) {
  const blobs: string[] = [];
  const readBlobs = catalog.store.readBlobs.bind(catalog.store);
  vi.spyOn(catalog.store, "readBlobs").mockImplementation((shas) => {
    blobs.push(...shas);
    return readBlobs(shas);
  });
  const eachBlob = catalog.store.eachBlob.bind(catalog.store);
  vi.spyOn(catalog.store, "eachBlob").mockImplementation((shas, onBlob) => {
    blobs.push(...shas);
    return eachBlob(shas, onBlob);
  });
  const listDir = vi.spyOn(catalog.store, "listDir");
  const listPaths = vi.spyOn(catalog.store, "listPaths");
  const entryAt = vi.spyOn(catalog.store, "entryAt");
  return { blobs, listDir, listPaths, entryAt };
}

/** The blob id of a file at the branch's head. */
async function blobOf(catalog: Catalog, file: string): Promise<string> {
  return (await catalog.store.git.raw(["rev-parse", `HEAD:${file}`])).trim();
}

/** What a cold load of the repository's current commit serves (a catalog with no snapshot). */
async function coldLoad(temp: TempRepo) {
  const catalog = new Catalog({ repo: await ensureConfigRepo({ dataDir: path.join(temp.root, "data"), shippedDir: path.join(temp.root, "shipped") }) });
  await catalog.refresh({ pull: false });
  return served(catalog);
}

const badOwners = (name: string) => yamlOf({ ...validComponent(name), spec: { ...validComponent(name).spec, owners: "nobody" } });

describe("catalog snapshot", () => {
  it("is reused when HEAD has not moved: no file is listed or read, and the same records and errors are served", async () => {
    repo = await tempCatalog({ "a.yaml": yamlOf(validComponent("a")), "b.yaml": yamlOf(validComponent("b")), "bad.yaml": "apiVersion: [unclosed\n" }, { snapshot: true });
    await repo.catalog.flushSnapshot();
    const before = served(repo.catalog);
    let reads!: ReturnType<typeof spyReads>;
    const restarted = await repo.restart((c) => (reads = spyReads(c)));
    expect(restarted.lastLoad).toEqual({ source: "snapshot", filesRead: 0 });
    expect(reads.blobs).toEqual([]);
    expect(reads.listDir).not.toHaveBeenCalled();
    expect(reads.listPaths).not.toHaveBeenCalled();
    // The one path looked up is the scorecard rules file (the snapshot keeps records, not rules).
    expect(reads.entryAt.mock.calls.map(([, file]) => file)).toEqual([SCORECARD_RULES_FILE]);
    // Each record is scored once, under the rules of the commit (not first under the default rules).
    expect(restarted.scorecards.evaluations).toBe(2);
    expect(served(restarted)).toEqual(before);
    expect(restarted.list({ q: "commerce/a", kind: [], owner: [], group: [], environment: [], dependency: [], level: [], favorites: false, stale: false, sort: "name", order: "asc", page: 1, pageSize: 25 }).items.map((i) => i.name)).toEqual(["a"]);
  });

  it("after HEAD moved, re-reads only the files added, modified and renamed, forgets the deleted, and serves what a cold load serves", async () => {
    const files: Record<string, string> = {};
    for (const n of ["a", "b", "c", "d", "e", "f"]) files[`${n}.yaml`] = yamlOf(validComponent(n));
    repo = await tempCatalog(files, { snapshot: true });
    await repo.catalog.flushSnapshot();
    await repo.commit({
      "components/a.yaml": yamlOf({ ...validComponent("a"), metadata: { name: "a", displayName: "A, modified" } }),
      "components/new.yaml": yamlOf(validComponent("new")),
      "components/b.yaml": null,
      // A rename (same content, new path), and a rename with a change.
      "components/c.yaml": null,
      "components/c-moved.yaml": yamlOf(validComponent("c")),
      "components/d.yaml": null,
      "components/d-moved.yml": yamlOf({ ...validComponent("d"), metadata: { name: "d", displayName: "D, moved" } }),
      // Outside the records folder: not a record, not read.
      "README.md": "# config\n",
    });
    let reads!: ReturnType<typeof spyReads>;
    const restarted = await repo.restart((c) => (reads = spyReads(c)));
    expect(restarted.lastLoad).toEqual({ source: "snapshot+diff", filesRead: 4 });
    const changed = await Promise.all(["a.yaml", "new.yaml", "c-moved.yaml", "d-moved.yml"].map((f) => blobOf(restarted, `components/${f}`)));
    expect(reads.blobs.sort()).toEqual(changed.sort());
    expect(reads.listDir).not.toHaveBeenCalled();
    expect(restarted.get("a")?.component.metadata.displayName).toBe("A, modified");
    expect(restarted.get("b")).toBeUndefined();
    expect(restarted.get("c")?.file).toBe("components/c-moved.yaml");
    expect(restarted.get("d")?.file).toBe("components/d-moved.yml");
    expect(served(restarted)).toEqual(await coldLoad(repo));
    // The new state is saved under the new commit: the next start reads nothing.
    await restarted.flushSnapshot();
    const again = await repo.restart();
    expect(again.lastLoad).toEqual({ source: "snapshot", filesRead: 0 });
    expect(served(again)).toEqual(served(restarted));
  });

  it("after HEAD moved, a file that became a symbolic link or a folder is judged as a cold load judges it", async () => {
    repo = await tempCatalog({ "a.yaml": yamlOf(validComponent("a")), "b.yaml": yamlOf(validComponent("b")), "c.yaml": yamlOf(validComponent("c")) }, { snapshot: true });
    await repo.catalog.flushSnapshot();
    const git = repo.catalog.store.git;
    // A link is a blob of mode 120000; plumbing writes it where a file was.
    const target = (await git.raw(["hash-object", "-w", "--stdin"], undefined, "../../etc/passwd")).trim();
    const inner = (await git.raw(["hash-object", "-w", "--stdin"], undefined, yamlOf(validComponent("inner")))).trim();
    const head = (await git.raw(["rev-parse", "HEAD"])).trim();
    const tree = (await git.raw(["ls-tree", "-r", "HEAD"])).split("\n").filter((l) => l && !l.endsWith("\tcomponents/a.yaml") && !l.endsWith("\tcomponents/b.yaml"));
    tree.push(`120000 blob ${target}\tcomponents/a.yaml`, `100644 blob ${inner}\tcomponents/b.yaml/inner.yaml`);
    const index = { GIT_INDEX_FILE: path.join(repo.root, "scratch-index") };
    await git.raw(["update-index", "--index-info"], index, tree.join("\n") + "\n");
    const newTree = (await git.raw(["write-tree"], index)).trim();
    const commit = (await git.raw(["commit-tree", newTree, "-p", head, "-m", "a link and a folder"])).trim();
    await git.raw(["update-ref", "refs/heads/main", commit, head]);

    const restarted = await repo.restart();
    expect(restarted.lastLoad?.source).toBe("snapshot+diff");
    expect(restarted.get("b")).toBeUndefined();
    expect(restarted.errors).toEqual([{ file: "components/a.yaml", path: "", message: expect.stringMatching(/symbolic link \(to \.\.\/\.\.\/etc\/passwd\)/) }]);
    // The record whose file became a link keeps its last valid version, marked stale, as in a running catalog.
    expect(restarted.get("a")?.stale).toBe(true);
    expect(restarted.get("c")?.stale).toBe(false);
  });

  describe("a snapshot that cannot be trusted is not used: every file is read, with the same result, and it is logged", () => {
    const damages: Array<[string, (text: Buffer) => Buffer | string]> = [
      ["a flipped byte in the body", (b) => Buffer.from(b.map((x, i) => (i === b.length - 10 ? x ^ 1 : x)))],
      ["a truncated file", (b) => b.subarray(0, Math.floor(b.length * 0.6))],
      ["a header cut in two", (b) => b.subarray(0, 20)],
      ["an empty file", () => ""],
      ["another format version (checksum intact)", (b) => b.toString().replace(`"version":${SNAPSHOT_VERSION}`, `"version":${SNAPSHOT_VERSION + 1}`)],
      ["other loading rules (checksum intact)", (b) => b.toString().replace(`"rules":"${LOADER_RULES}"`, '"rules":"older"')],
      ["a commit the repository does not hold (checksum intact)", (b) => b.toString().replace(/"commit":"[0-9a-f]{40}"/, `"commit":"${"1".repeat(40)}"`)],
      ["another file entirely", () => "not a snapshot\n{}"],
    ];
    it.each(damages)("%s", async (_what, damage) => {
      repo = await tempCatalog({ "a.yaml": yamlOf(validComponent("a")), "b.yaml": badOwners("b"), "c.yaml": yamlOf(validComponent("c")) }, { snapshot: true });
      await repo.catalog.flushSnapshot();
      const expected = served(repo.catalog);
      const file = snapshotFileFor(repo.catalog.repo.dir);
      await writeFile(file, damage(await readFile(file)));
      const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
      const restarted = await repo.restart();
      expect(restarted.lastLoad).toMatchObject({ source: "full", filesRead: 3, snapshotRefused: expect.any(String) });
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^\[catalog\] not using the snapshot .*; reading every record file$/));
      expect(served(restarted)).toEqual(expected);
      // The full read saves a good snapshot again.
      await restarted.flushSnapshot();
      expect((await repo.restart()).lastLoad).toEqual({ source: "snapshot", filesRead: 0 });
    });
  });

  it("keeps load errors exactly across a restart: bad files, duplicates, and a broken record's last valid version on show", async () => {
    repo = await tempCatalog(
      { "a.yaml": yamlOf(validComponent("a")), "dup-1.yaml": yamlOf(validComponent("dup")), "dup-2.yaml": yamlOf(validComponent("dup")), "yaml.yaml": "kind: [\n", "ok.yaml": yamlOf(validComponent("ok")) },
      { snapshot: true },
    );
    await repo.commit({ "components/a.yaml": badOwners("a") });
    await repo.catalog.refresh();
    const before = served(repo.catalog);
    expect(before.errors.map((e) => e.file)).toEqual(["components/a.yaml", "components/dup-2.yaml", "components/yaml.yaml"]);
    expect(repo.catalog.get("a")).toMatchObject({ stale: true, staleReason: expect.stringMatching(/spec\.owners/) });
    await repo.catalog.flushSnapshot();
    const restarted = await repo.restart();
    expect(restarted.lastLoad?.source).toBe("snapshot");
    expect(served(restarted)).toEqual(before);
    expect(restarted.get("a")?.component).toEqual(validComponent("a"));
    expect(restarted.list({ q: "", kind: [], owner: [], group: [], environment: [], dependency: [], level: [], favorites: false, stale: true, sort: "name", order: "asc", page: 1, pageSize: 25 }).counts).toMatchObject({ errors: 3, stale: 1 });
  });

  it("a write then a restart shows the write; a crash before the snapshot is saved costs only re-reading the written file", async () => {
    repo = await tempCatalog({ "a.yaml": yamlOf(validComponent("a")), "b.yaml": yamlOf(validComponent("b")) }, { snapshot: true });
    await repo.catalog.update("a", { mode: "merge", body: { metadata: { displayName: "First edit" } }, ifMatch: "*", author });
    await repo.catalog.flushSnapshot();
    let restarted = await repo.restart();
    expect(restarted.lastLoad).toEqual({ source: "snapshot", filesRead: 0 });
    expect(restarted.get("a")?.component.metadata.displayName).toBe("First edit");

    // Committed, then the process dies before the (delayed) snapshot write.
    await restarted.update("a", { mode: "merge", body: { metadata: { displayName: "Second edit" } }, ifMatch: "*", author });
    let reads!: ReturnType<typeof spyReads>;
    restarted = await repo.restart((c) => (reads = spyReads(c)));
    expect(restarted.lastLoad).toEqual({ source: "snapshot+diff", filesRead: 1 });
    expect(reads.blobs).toEqual([await blobOf(restarted, "components/a.yaml")]);
    expect(restarted.get("a")?.component.metadata.displayName).toBe("Second edit");
    expect(restarted.get("a")?.etag).toBe((await restarted.source("a"))?.etag);
  });

  it("never saves a state that mixes commits: a write on top of a branch moved by another writer waits for the next refresh", async () => {
    repo = await tempCatalog({ "a.yaml": yamlOf(validComponent("a")), "b.yaml": yamlOf(validComponent("b")) }, { snapshot: true });
    await repo.catalog.flushSnapshot();
    const saved = await readFile(snapshotFileFor(repo.catalog.repo.dir));
    // Another writer changes b; this process, not refreshed yet, writes a on top of it.
    await repo.commit({ "components/b.yaml": yamlOf({ ...validComponent("b"), metadata: { name: "b", displayName: "B by someone else" } }) });
    await repo.catalog.update("a", { mode: "merge", body: { metadata: { displayName: "A here" } }, ifMatch: "*", author });
    await repo.catalog.flushSnapshot();
    expect(await readFile(snapshotFileFor(repo.catalog.repo.dir))).toEqual(saved);
    // A refresh makes the state one commit's again, and that is saved.
    await repo.catalog.refresh();
    await repo.catalog.flushSnapshot();
    const restarted = await repo.restart();
    expect(restarted.lastLoad).toEqual({ source: "snapshot", filesRead: 0 });
    expect(restarted.get("a")?.component.metadata.displayName).toBe("A here");
    expect(restarted.get("b")?.component.metadata.displayName).toBe("B by someone else");
  });

  it("the loader rules fingerprint matches the loading code (update LOADER_RULES in snapshot.ts when this fails)", async () => {
    const hash = createHash("sha256");
    for (const f of ["parse.ts", "fast-yaml.ts", "schema.ts", "committed-records.ts"]) hash.update(await readFile(path.resolve("lib/catalog", f)));
    expect(LOADER_RULES).toBe(hash.digest("hex").slice(0, 16));
  });
});
