/**
 * The import from Backstage on real git: repositories made here holding catalog-info.yaml (the demo's
 * growth/loyalty, and one with every kind of bad input), the config repository's merge request, and the
 * portal database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import * as schema from "../db/schema";
import { testDatabaseTargets, type TestDatabase } from "@/test-support/db/test-databases";
import { tempCatalog, validComponent, yamlOf, type TempRepo } from "@/test-support/catalog/temp-catalog";
import { openPortalTestDatabase } from "@/test-support/portal/test-portal";
import { LocalScmProvider } from "../../scm/local";
import { DEMO_REPOSITORIES, ensureDemoRepositories } from "../../scm/demo";
import { validateComponent } from "../../catalog/schema";
import { dbMergeRequestStore } from "./merge-request-store";
import { ConfigRepository } from "./config-repo";
import { importRepositories } from "./import";

const operator = { id: "olga", name: "Olga Operator", email: "olga@example.com" };
const author = { name: "Test", email: "test@example.com" };

const BAD_CATALOG = `apiVersion: backstage.io/v1alpha1
kind: Component
metadata: {name: Billing_Core}
spec: {type: service, owner: user:ann}
---
kind: [unclosed
---
apiVersion: backstage.io/v1alpha1
kind: Template
metadata: {name: new-service}
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata: {name: billing-jobs}
spec: {type: batch, owner: user:ann}
`;

describe.each(testDatabaseTargets())("import from Backstage on %s", (target) => {
  let db: TestDatabase<typeof schema>;
  let repo: TempRepo;
  let root: string;
  let scm: LocalScmProvider;
  let configProvider: LocalScmProvider;
  let deps: { db: TestDatabase<typeof schema>["db"]; scm: LocalScmProvider; catalog: TempRepo["catalog"]; config: ConfigRepository };

  beforeAll(async () => {
    db = await openPortalTestDatabase(target);
    repo = await tempCatalog({ "checkout-api.yaml": yamlOf(validComponent("checkout-api", { repo: { path: "commerce/checkout-api" } })) });
    root = await mkdtemp(path.join(tmpdir(), "backstage-repos-"));
    const store = dbMergeRequestStore(db.db);
    scm = new LocalScmProvider({ root, store });
    await ensureDemoRepositories(scm, [
      ...DEMO_REPOSITORIES.filter((r) => ["growth/loyalty", "growth/quest-engine"].includes(r.path)),
      { path: "billing/core", description: "bad input", commits: [{ message: "catalog", author, files: [{ path: "catalog-info.yaml", content: BAD_CATALOG }] }] },
      { path: "billing/huge", description: "10 MB", commits: [{ message: "catalog", author, files: [{ path: "catalog-info.yaml", content: `# ${"x".repeat(10_000_000)}\n` }] }] },
    ]);
    configProvider = new LocalScmProvider({
      root,
      store,
      workingCopies: { "portal/config": { dir: repo.catalog.repo.dir, exclusive: (fn) => repo.catalog.exclusive(fn), afterChange: async () => void (await repo.catalog.refresh({ pull: false })) } },
    });
    deps = { db: db.db, scm, catalog: repo.catalog, config: new ConfigRepository(repo.catalog, { provider: configProvider, repo: "portal/config" }) };
  });
  afterAll(async () => {
    await db?.close();
    await repo?.cleanup();
    await rm(root, { recursive: true, force: true });
  });

  it("a dry run answers a record per Component (Location targets followed) and the report, and writes nothing", async () => {
    const head = await deps.config.head();
    const r = await importRepositories(deps, ["growth/loyalty"], { user: operator, direct: true, dryRun: true, format: "backstage" });
    expect(r).toMatchObject({ commit: null, mergeRequest: null });
    expect(r.results.map((x) => [x.entity, x.status, x.name, x.kind])).toEqual([
      ["component:default/loyalty-points", "ready", "loyalty-points", "service"],
      ["component:default/loyalty-web", "ready", "loyalty-web", "frontend"],
    ]);
    expect(r.results[0].component?.spec).toMatchObject({
      system: "loyalty",
      owners: [
        { user: "bob.nguyen", group: "growth/loyalty-team" },
        { user: "alice.martin", group: "growth/loyalty-team" },
      ],
      dependsOn: ["checkout-api"],
      providesApis: [{ name: "loyalty-points-api", type: "openapi", path: "api/openapi.yaml" }],
      consumesApis: ["checkout"],
    });
    expect(r.results[1].component?.spec).toMatchObject({ dependsOn: ["loyalty-points"], consumesApis: ["loyalty-points-api"], system: "loyalty" });
    const said = r.unmapped?.map((n) => `${n.entity} · ${n.field}: ${n.message}`) ?? [];
    expect(said).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^api:default\/loyalty-events · spec\.definition: the definition is inline/),
        expect.stringMatching(/^resource:default\/loyalty-db · kind: kind Resource is not imported/),
        expect.stringMatching(/^component:default\/loyalty-points · spec\.dependsOn\[1\]: resource:default\/loyalty-db is a resource/),
        "component:default/loyalty-points · metadata.annotations.backstage.io/techdocs-ref: not kept: our records have no such field",
      ]),
    );
    expect(r.unmapped?.every((n) => n.repository === "growth/loyalty")).toBe(true);
    expect(await deps.config.head()).toBe(head);
  });

  it("bad input is reported per entity, never thrown: invalid YAML, a 10 MB file, an unknown kind, a refused name, no catalog file", async () => {
    const r = await importRepositories(deps, ["billing/core", "billing/huge", "growth/quest-engine", "nobody/missing"], { user: operator, direct: true, dryRun: true, format: "backstage" });
    expect(r.results.map((x) => [x.repository, x.entity ?? null, x.status])).toEqual([
      ["billing/core", "component:default/Billing_Core", "failed"],
      ["billing/core", "component:default/billing-jobs", "ready"],
      ["billing/huge", null, "failed"],
      ["growth/quest-engine", null, "failed"],
      ["nobody/missing", null, "failed"],
    ]);
    expect(r.results[0].message).toContain('the name "Billing_Core" is refused');
    const about = (repository: string) => r.unmapped?.filter((n) => n.repository === repository).map((n) => `${n.entity} · ${n.field}: ${n.message}`);
    expect(about("billing/core")).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^catalog-info\.yaml, document 2 · : not valid YAML/),
        expect.stringMatching(/^template:default\/new-service · kind: kind Template is not imported/),
        expect.stringMatching(/^component:default\/billing-jobs · spec\.type: "batch": imported as a service/),
      ]),
    );
    expect(about("billing/huge")).toEqual([expect.stringContaining("the file is 10.0 MB; at most 1 MB is read")]);
    expect(about("growth/quest-engine")).toEqual([expect.stringContaining("has no catalog-info.yaml at its root")]);
  });

  it("an operator's import opens one merge request (never a commit) whose records validate and whose description carries the report", async () => {
    const head = await deps.config.head();
    const r = await importRepositories(deps, ["growth/loyalty", "billing/core"], { user: operator, direct: true, format: "backstage" });
    expect(r.commit).toBeNull();
    expect(r.mergeRequest?.sourceBranch).toMatch(/^portal\/import\//);
    expect(r.mergeRequest?.description).toContain("Not mapped from Backstage");
    expect(r.mergeRequest?.description).toContain("api:default/loyalty-events · spec.definition: the definition is inline");
    expect(r.results.filter((x) => x.status === "proposed").map((x) => x.name)).toEqual(["loyalty-points", "loyalty-web", "billing-jobs"]);
    expect(await deps.config.head()).toBe(head);
    const diff = await configProvider.getMergeRequestDiff("portal/config", r.mergeRequest!.iid);
    expect(diff.files.map((f) => f.newPath)).toEqual(["components/billing-jobs.yaml", "components/loyalty-points.yaml", "components/loyalty-web.yaml"]);
    for (const f of diff.files) {
      const text = await configProvider.readFile("portal/config", f.newPath, r.mergeRequest!.sourceBranch);
      expect(validateComponent(parse(text ?? "")).ok).toBe(true);
    }
  });

  it("sent twice it is one merge request; once merged, the records are in the catalog and the same import again says so, writing nothing", async () => {
    const proposed = await importRepositories(deps, ["growth/loyalty"], { user: operator, direct: true, format: "backstage" });
    // Sent twice (a double-click): the same merge request.
    const twice = await importRepositories(deps, ["growth/loyalty"], { user: operator, direct: true, format: "backstage" });
    expect(twice.mergeRequest?.iid).toBe(proposed.mergeRequest?.iid);
    await configProvider.mergeMergeRequest("portal/config", proposed.mergeRequest!.iid);
    await repo.catalog.refresh({ pull: false });
    expect(repo.catalog.get("loyalty-points")?.component.spec).toMatchObject({ repo: { path: "growth/loyalty" }, system: "loyalty" });
    const again = await importRepositories(deps, ["growth/loyalty"], { user: operator, direct: true, format: "backstage" });
    expect(again.results.map((x) => [x.name, x.status, x.message])).toEqual([
      ["loyalty-points", "exists", "already in the catalog as loyalty-points"],
      ["loyalty-web", "exists", "already in the catalog as loyalty-web"],
    ]);
    expect(again).toMatchObject({ commit: null, mergeRequest: null });
  });
});
