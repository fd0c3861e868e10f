import { afterEach, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { simpleGit } from "simple-git";
import { listQuerySchema } from "./query";
import { tempCatalog, validComponent, yamlOf, type TempRepo } from "@/test-support/catalog/temp-catalog";
import { checkName } from "./names";
import { CatalogWriteError } from "./errors";

/** What a refused write throws. */
const refusal = (p: Promise<unknown>) => p.then(() => expect.unreachable("the write was accepted"), (e: unknown) => (expect(e).toBeInstanceOf(CatalogWriteError), e as CatalogWriteError));

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const author = { id: "alice", name: "Alice Martin", email: "alice@example.com" };

describe("loader", () => {
  it("loads good files and reports bad YAML with file and message, the rest still loading", async () => {
    repo = await tempCatalog({
      "a.yaml": yamlOf(validComponent("a")),
      "b.yaml": "apiVersion: [unclosed\nkind: Component\n",
      "c.yaml": yamlOf(validComponent("c")),
    });
    expect(repo.catalog.entries().map((e) => e.name)).toEqual(["a", "c"]);
    const errors = repo.catalog.errors;
    expect(errors).toHaveLength(1);
    expect(errors[0].file).toBe("components/b.yaml");
    expect(errors[0].message).toMatch(/YAML syntax error/);
  });

  it("reports a schema error with its field path", async () => {
    const bad = validComponent("bad") as unknown as { spec: { kind: string } };
    bad.spec.kind = "backend";
    repo = await tempCatalog({ "bad.yaml": yamlOf(bad), "ok.yaml": yamlOf(validComponent("ok")) });
    expect(repo.catalog.errors).toEqual([{ file: "components/bad.yaml", path: "spec.kind", message: expect.stringMatching(/must be one of .*found text "backend"/) }]);
    expect(repo.catalog.size).toBe(1);
  });

  it("reports a duplicate name naming both files, keeping one", async () => {
    repo = await tempCatalog({ "one.yaml": yamlOf(validComponent("dup")), "two.yaml": yamlOf(validComponent("dup")) });
    expect(repo.catalog.size).toBe(1);
    expect(repo.catalog.get("dup")?.file).toBe("components/one.yaml");
    const [err] = repo.catalog.errors;
    expect(err.file).toBe("components/two.yaml");
    expect(err.message).toContain("components/one.yaml");
    expect(err.path).toBe("metadata.name");
  });

  it("a new duplicate never takes the name from the file that held it", async () => {
    repo = await tempCatalog({ "z.yaml": yamlOf(validComponent("dup")) });
    await repo.commit({ "components/a.yaml": yamlOf(validComponent("dup")) });
    await repo.catalog.refresh();
    expect(repo.catalog.get("dup")?.file).toBe("components/z.yaml");
    expect(repo.catalog.errors[0].file).toBe("components/a.yaml");
  });

  it("turns an alias bomb into an error entry", async () => {
    // 10^10 nodes once expanded: a loader without the guard never finishes, so the test's timeout is the bound
    // (a figure in milliseconds here would measure the machine's load, not the guard).
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 10; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(", ")}]`);
    repo = await tempCatalog({ "bomb.yaml": bomb.join("\n") + "\n", "ok.yaml": yamlOf(validComponent("ok")) });
    expect(repo.catalog.size).toBe(1);
    expect(repo.catalog.errors).toEqual([{ file: "components/bomb.yaml", path: "", message: expect.stringMatching(/alias bomb/) }]);
  });

  it("refuses a 5 MB file without parsing it", async () => {
    const big = yamlOf(validComponent("big")) + `# ${"x".repeat(5 * 1024 * 1024)}\n`;
    repo = await tempCatalog({ "big.yaml": big, "ok.yaml": yamlOf(validComponent("ok")) });
    expect(repo.catalog.size).toBe(1);
    expect(repo.catalog.errors).toEqual([{ file: "components/big.yaml", path: "", message: expect.stringMatching(/5\.0 MB; the limit is 1\.0 MB/) }]);
  });

  it("reports empty files, lists and multiple documents", async () => {
    repo = await tempCatalog({
      "empty.yaml": "# nothing here\n",
      "list.yaml": "- a\n- b\n",
      "multi.yaml": `${yamlOf(validComponent("m1"))}---\n${yamlOf(validComponent("m2"))}`,
    });
    expect(repo.catalog.size).toBe(0);
    const byFile = Object.fromEntries(repo.catalog.errors.map((e) => [e.file, e.message]));
    expect(byFile["components/empty.yaml"]).toMatch(/empty/);
    expect(byFile["components/list.yaml"]).toMatch(/mapping/);
    expect(byFile["components/multi.yaml"]).toMatch(/YAML syntax error/);
  });

  it("keeps the last valid version of a record that breaks after loading, marked stale", async () => {
    repo = await tempCatalog({ "svc.yaml": yamlOf(validComponent("svc")) });
    const file = "components/svc.yaml";
    const broken = validComponent("svc") as unknown as { spec: { owners: unknown } };
    broken.spec.owners = "nobody";
    await repo.commit({ [file]: yamlOf(broken) });
    const summary = await repo.catalog.refresh();
    expect(summary.components).toBe(1);
    expect(summary.stale).toBe(1);
    const entry = repo.catalog.get("svc");
    expect(entry?.stale).toBe(true);
    expect(entry?.component.spec.owners).toEqual(validComponent("svc").spec.owners);
    expect(entry?.staleReason).toMatch(/spec\.owners/);
    expect(repo.catalog.errors[0]).toMatchObject({ file: "components/svc.yaml", path: "spec.owners" });

    // Unparseable YAML keeps it stale too; a fix clears it.
    await repo.commit({ [file]: "metadata: [\n" });
    await repo.catalog.refresh();
    expect(repo.catalog.get("svc")?.stale).toBe(true);
    await repo.commit({ [file]: yamlOf(validComponent("svc")) });
    await repo.catalog.refresh();
    expect(repo.catalog.get("svc")?.stale).toBe(false);
    expect(repo.catalog.errors).toEqual([]);
  });

  it("says what a refresh changed: records changed, added and removed, errors before and after", async () => {
    repo = await tempCatalog({ "a.yaml": yamlOf(validComponent("a")), "b.yaml": yamlOf(validComponent("b")) });
    expect((await repo.catalog.refresh()).changes).toEqual({ changed: 0, added: 0, removed: 0, errorsBefore: 0, errorsAfter: 0 });
    await repo.commit({ "components/a.yaml": "metadata: [\n", "components/b.yaml": null, "components/c.yaml": yamlOf(validComponent("c")) });
    expect((await repo.catalog.refresh()).changes).toEqual({ changed: 1, added: 1, removed: 1, errorsBefore: 0, errorsAfter: 1 });
    await repo.commit({ "components/a.yaml": yamlOf(validComponent("a")) });
    expect((await repo.catalog.refresh()).changes).toEqual({ changed: 1, added: 0, removed: 0, errorsBefore: 1, errorsAfter: 0 });
  });

  it("says whether re-reading one record changed it", async () => {
    repo = await tempCatalog({ "a.yaml": yamlOf(validComponent("a")) });
    expect((await repo.catalog.refreshOne("a"))?.changed).toBe(false);
    await repo.commit({ "components/a.yaml": yamlOf({ ...validComponent("a"), metadata: { name: "a", displayName: "Renamed A" } }) });
    expect((await repo.catalog.refreshOne("a"))?.changed).toBe(true);
  });

  it("refreshes one record by name, and forgets deleted files", async () => {
    repo = await tempCatalog({ "a.yaml": yamlOf(validComponent("a")), "b.yaml": yamlOf(validComponent("b")) });
    await repo.commit({ "components/a.yaml": yamlOf({ ...validComponent("a"), metadata: { name: "a", displayName: "Renamed A" } }) });
    const one = await repo.catalog.refreshOne("a");
    expect(one).toMatchObject({ name: "a", stale: false, removed: false, errors: [] });
    expect(repo.catalog.get("a")?.component.metadata.displayName).toBe("Renamed A");
    expect(await repo.catalog.refreshOne("nope")).toBeNull();
    await repo.commit({ "components/b.yaml": null });
    await repo.catalog.refresh();
    expect(repo.catalog.get("b")).toBeUndefined();
  });
});

describe("names", () => {
  it.each(["..", "a/b", "%2e%2e", "%2F", "a%2Fb", "A", "-a", "", "a..b", "a.b", "favorites", "%252F"])("refuses %j", (raw) => {
    expect(checkName(raw).ok).toBe(false);
  });
  it("accepts a record name", () => {
    expect(checkName("checkout-api")).toEqual({ ok: true, name: "checkout-api" });
  });
});

describe("search index", () => {
  it("searches, filters, sorts, pages and counts", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) {
      const c = validComponent(`svc-${String(i).padStart(2, "0")}`, {
        kind: i % 3 === 0 ? "frontend" : "service",
        environments: i % 5 === 0 ? [] : ["dev", "production"],
        runtime: undefined,
        owners: [{ user: i % 2 ? "alice" : "bob", group: i % 2 ? "team/odd" : "team/even" }],
        dependencies: { redis: i % 4 === 0 },
      });
      if (i === 7) Object.assign(c.metadata, { description: "Pays out loyalty points", tags: ["loyalty", "tier-1"] });
      files[`f${i}.yaml`] = yamlOf(c);
    }
    repo = await tempCatalog(files);
    const q = (o: Record<string, unknown>) => repo!.catalog.list(listQuerySchema.parse(o));
    expect(q({}).total).toBe(30);
    expect(q({ q: "SVC-1" }).total).toBe(10);
    expect(q({ q: "alice" }).total).toBe(15);
    // Description and tags are searched too.
    expect(q({ q: "loyalty points" }).items.map((i) => i.name)).toEqual(["svc-07"]);
    expect(q({ q: "tier-1" }).items.map((i) => i.name)).toEqual(["svc-07"]);
    expect(q({ q: "team/even svc-0" }).items.map((i) => i.name)).toEqual(["svc-00", "svc-02", "svc-04", "svc-06", "svc-08"]);
    const frontend = q({ kind: "frontend" });
    expect(frontend.total).toBe(10);
    expect(frontend.counts.kind).toEqual({ frontend: 10, service: 20 });
    expect(q({ environment: "none" }).total).toBe(6);
    expect(q({ dependency: "redis" }).total).toBe(8);
    expect(q({ group: "team/odd", kind: ["frontend"] }).total).toBe(5);
    expect(q({ owner: "bob" }).total).toBe(15);
    const paged = q({ pageSize: "7", page: "5" });
    expect(paged).toMatchObject({ total: 30, pages: 5, page: 5 });
    expect(paged.items).toHaveLength(2);
    expect(q({ sort: "name", order: "desc", pageSize: 1 }).items[0].name).toBe("svc-29");
    expect(q({ favorites: "1" }).total).toBe(0);
    const favs = repo.catalog.list(listQuerySchema.parse({ favorites: "1" }), new Set(["svc-03", "gone"]));
    expect(favs.items.map((i) => [i.name, i.favorite])).toEqual([["svc-03", true]]);
    expect(favs.counts.favorites).toBe(1);
  });
});

describe("write-back", () => {
  const commented = `# Checkout API: takes payment.
apiVersion: platform.example.com/v1alpha1
kind: Component
metadata:
  name: shop # the record name
  displayName: "Shop"
spec:
  kind: service
  repo:
    path: commerce/shop
  # Who to page.
  owners:
    - user: alice # lead
      group: commerce/backend
  environments:
    - dev
    - production
  dependencies:
    redis: true # cache
    mongo: false
`;

  it("PATCH keeps comments and key order, and commits with the user as author", async () => {
    repo = await tempCatalog({ "shop.yaml": commented });
    const entry = repo.catalog.get("shop")!;
    const r = await repo.catalog.update("shop", { mode: "merge", body: { metadata: { displayName: "The Shop" }, spec: { dependencies: { mongo: true } } }, ifMatch: entry.etag, author });
    expect(r.ok).toBe(true);
    const text = await readFile(path.join(repo.componentsDir, "shop.yaml"), "utf8");
    expect(text).toBe(commented.replace('displayName: "Shop"', 'displayName: "The Shop"').replace("mongo: false", "mongo: true"));
    const log = await simpleGit(repo.catalog.repo.dir).log({ maxCount: 1 });
    expect(log.latest?.author_name).toBe("Alice Martin");
    expect(log.latest?.author_email).toBe("alice@example.com");
    expect(repo.catalog.get("shop")?.component.metadata.displayName).toBe("The Shop");
  });

  it("PUT replaces: removed keys go, new keys are appended, comments on the rest stay", async () => {
    repo = await tempCatalog({ "shop.yaml": commented });
    const current = structuredClone(repo.catalog.get("shop")!.component);
    delete current.spec.dependencies;
    current.spec.environments = ["dev", "staging", "production"];
    current.spec.library = { model: "single", defaultRegistry: "npm.example.com" };
    const r = await repo.catalog.update("shop", { mode: "replace", body: current, ifMatch: repo.catalog.get("shop")!.etag, author });
    expect(r.ok).toBe(true);
    const text = await readFile(path.join(repo.componentsDir, "shop.yaml"), "utf8");
    expect(text).toContain("# Checkout API: takes payment.");
    expect(text).toContain("name: shop # the record name");
    expect(text).toContain("- user: alice # lead");
    expect(text).toContain("  # Who to page.");
    expect(text).not.toContain("redis");
    expect(text.indexOf("owners")).toBeLessThan(text.indexOf("environments"));
    expect(text.indexOf("environments")).toBeLessThan(text.indexOf("library"));
    expect(text).toMatch(/- dev\n {4}- staging\n {4}- production/);
  });

  it("PATCH with null removes a key; invalid results are refused invalid-record with field issues; rename refused", async () => {
    repo = await tempCatalog({ "shop.yaml": commented });
    const etag = repo.catalog.get("shop")!.etag;
    const bad = await refusal(repo.catalog.update("shop", { mode: "merge", body: { spec: { kind: "backend" } }, ifMatch: etag, author }));
    expect(bad).toMatchObject({ code: "invalid-record", issues: [{ path: ["spec", "kind"] }] });
    const rename = await refusal(repo.catalog.update("shop", { mode: "merge", body: { metadata: { name: "other" } }, ifMatch: etag, author }));
    expect(rename).toMatchObject({ code: "invalid-record", issues: [{ path: ["metadata", "name"] }] });
    const ok = await repo.catalog.update("shop", { mode: "merge", body: { spec: { dependencies: null } }, ifMatch: etag, author });
    expect(ok.ok).toBe(true);
    expect(await readFile(path.join(repo.componentsDir, "shop.yaml"), "utf8")).not.toContain("dependencies");
  });

  it("stale If-Match is refused precondition-failed with the current etag; unknown name not-found; '*' writes unconditionally", async () => {
    repo = await tempCatalog({ "shop.yaml": commented });
    const stale = await refusal(repo.catalog.update("shop", { mode: "merge", body: {}, ifMatch: '"nope"', author }));
    expect(stale).toMatchObject({ code: "precondition-failed", fields: { etag: repo.catalog.get("shop")!.etag } });
    expect(await refusal(repo.catalog.update("nope", { mode: "merge", body: {}, ifMatch: "*", author }))).toMatchObject({ code: "not-found" });
    const r = await repo.catalog.update("shop", { mode: "merge", body: { metadata: { displayName: "Star" } }, ifMatch: "*", author });
    expect(r.ok).toBe(true);
  });

  it("a change committed by another writer after loading makes the old ETag stale", async () => {
    repo = await tempCatalog({ "shop.yaml": commented });
    const etag = repo.catalog.get("shop")!.etag;
    await repo.commit({ "components/shop.yaml": commented.replace("Shop", "Shop!") });
    expect(await refusal(repo.catalog.update("shop", { mode: "merge", body: {}, ifMatch: etag, author }))).toMatchObject({ code: "precondition-failed" });
  });

  it("20 concurrent PATCHes: each accepted or precondition-failed, no accepted change lost", async () => {
    repo = await tempCatalog({ "shop.yaml": commented });
    const catalog = repo.catalog;
    const etag = catalog.get("shop")!.etag;
    // Half start from the same ETag (one wins), half re-read and retry until accepted.
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const user = { id: `user${i}`, name: `User ${i}` };
        const body = { spec: { owners: [{ user: "alice", group: "commerce/backend" }] }, metadata: { displayName: `Shop ${i}` } };
        const attempt = (ifMatch: string) =>
          catalog.update("shop", { mode: "merge", body, ifMatch, author: user }).then(
            (r) => r,
            (e: unknown) => (e instanceof CatalogWriteError ? e : Promise.reject(e)),
          );
        if (i % 2 === 0) return { i, r: await attempt(etag) };
        for (;;) {
          const r = await attempt((await catalog.source("shop"))!.etag);
          if (!(r instanceof CatalogWriteError) || r.code !== "precondition-failed") return { i, r };
        }
      }),
    );
    for (const { r } of results) expect(r instanceof CatalogWriteError ? r.code : "ok").toMatch(/^(ok|precondition-failed)$/);
    const accepted = results.filter((x) => !(x.r instanceof CatalogWriteError) && x.r.changed);
    expect(accepted.length).toBeGreaterThanOrEqual(10);
    // Every accepted change is one commit by its author, in order; the file holds the last one.
    const log = await simpleGit(catalog.repo.dir).log();
    const authors = log.all.slice(0, accepted.length).map((c) => c.author_name).reverse();
    expect(new Set(authors)).toEqual(new Set(accepted.map((x) => `User ${x.i}`)));
    const last = authors[authors.length - 1];
    const text = await readFile(path.join(repo.componentsDir, "shop.yaml"), "utf8");
    expect(text).toContain(`displayName: "Shop ${last.replace("User ", "")}"`);
    expect(text).toContain("# Who to page.");
  });
});

describe("query cache", () => {
  it("answers from cache until the catalog changes", async () => {
    repo = await tempCatalog({ "a.yaml": yamlOf(validComponent("a")), "b.yaml": yamlOf(validComponent("b")) });
    const q = listQuerySchema.parse({ q: "display" });
    expect(repo.catalog.list(q).total).toBe(2);
    expect(repo.catalog.list({ ...q, page: 2, pageSize: 1 }).items.map((i) => i.name)).toEqual(["b"]);
    const r = await repo.catalog.update("a", { mode: "merge", body: { metadata: { displayName: "Renamed" } }, ifMatch: "*", author });
    expect(r.ok).toBe(true);
    expect(repo.catalog.list(q).items.map((i) => i.name)).toEqual(["b"]);
    // Favorites filters are never cached.
    expect(repo.catalog.list(listQuerySchema.parse({ favorites: "1" }), new Set(["a"])).total).toBe(1);
    expect(repo.catalog.list(listQuerySchema.parse({ favorites: "1" }), new Set(["a", "b"])).total).toBe(2);
  });
});
