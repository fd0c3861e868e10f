/**
 * GitOps services on real git (config repository working copy + bare component repositories) and the
 * portal database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as schema from "../db/schema";
import { testDatabaseTargets, type TestDatabase } from "@/test-support/db/test-databases";
import { tempCatalog, validComponent, yamlOf, type TempRepo } from "@/test-support/catalog/temp-catalog";
import { LocalScmProvider } from "../../scm/local";
import { dbMergeRequestStore } from "./merge-request-store";
import { DEMO_REPOSITORIES, ensureDemoRepositories } from "../../scm/demo";
import { ConfigRepository, configFilePath } from "./config-repo";
import { createRelease, deployedVersions, listReleases } from "./releases";
import { getConfig, writeConfig } from "./environment-config";
import { openMergeRequests } from "./merge-requests";
import { importRepositories, listImportable } from "./import";
import { openPortalTestDatabase, rejectsWithPortalError } from "@/test-support/portal/test-portal";

const operator = { id: "olga", name: "Olga Operator", email: "olga@example.com" };
const engineer = { id: "eddie", name: "Eddie Engineer", email: "eddie@example.com" };

describe.each(testDatabaseTargets())("gitops on %s", (target) => {
  let db: TestDatabase<typeof schema>;
  let repo: TempRepo;
  let root: string;
  let deps: { db: TestDatabase<typeof schema>["db"]; scm: LocalScmProvider; catalog: TempRepo["catalog"]; config: ConfigRepository };
  let configProvider: LocalScmProvider;

  beforeAll(async () => {
    db = await openPortalTestDatabase(target);
    repo = await tempCatalog({
      "checkout-api.yaml": yamlOf(validComponent("checkout-api", { repo: { path: "commerce/checkout-api" } }), "the checkout"),
      "docs-only.yaml": yamlOf(validComponent("docs-only", { kind: "docs", environments: [], runtime: undefined, repo: { path: "platform/developer-docs" } })),
    });
    root = await mkdtemp(path.join(tmpdir(), "gitops-repos-"));
    const store = dbMergeRequestStore(db.db);
    const scm = new LocalScmProvider({ root, store });
    await ensureDemoRepositories(scm, DEMO_REPOSITORIES.filter((r) => ["commerce/checkout-api", "growth/quest-engine", "web/marketing-site"].includes(r.path)));
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

  describe("config", () => {
    it("operators commit persistent values directly, with comments kept and the user as author", async () => {
      const r = await writeConfig(deps, "checkout-api", [{ environment: "staging", values: { LOG_LEVEL: "info", WORKERS: 4, FEATURE_X: true } }], { view: "persistent", user: operator, direct: true });
      expect(r.mode).toBe("commit");
      const file = configFilePath("checkout-api", "staging");
      const text = await deps.config.readText(file);
      expect(text).toMatch(/^# Persistent config of checkout-api in staging/);
      await writeConfig(deps, "checkout-api", [{ environment: "staging", values: { WORKERS: 8, FEATURE_X: null } }], { view: "persistent", user: operator, direct: true });
      const after = await deps.config.readText(file);
      expect(after).toContain("# Persistent config");
      expect(await deps.config.readValues("checkout-api", "staging")).toEqual({ LOG_LEVEL: "info", WORKERS: 8 });
      const log = await repo.catalog.repo.git.log({ maxCount: 1 });
      expect(log.latest?.author_email).toBe("olga@example.com");
    });

    it("shows current values, and the difference from persistent as drift", async () => {
      const persistent = await getConfig(deps, "checkout-api", "persistent");
      expect(persistent.environments.map((e) => e.environment)).toEqual(["dev", "staging", "sandbox", "production"]);
      const staging = persistent.environments.find((e) => e.environment === "staging");
      expect(staging?.values).toEqual({ LOG_LEVEL: "info", WORKERS: 8 });
      expect(staging?.drift).toEqual(["LOG_LEVEL", "WORKERS"]);
      await writeConfig(deps, "checkout-api", [{ environment: "staging", values: { LOG_LEVEL: "debug", WORKERS: 8 } }], { view: "current", user: operator, direct: true });
      const current = await getConfig(deps, "checkout-api", "current");
      const cs = current.environments.find((e) => e.environment === "staging");
      expect(cs).toMatchObject({ values: { LOG_LEVEL: "debug", WORKERS: 8 }, drift: ["LOG_LEVEL"], source: "edit", updatedBy: "olga" });
    });

    it("refuses invalid values and unknown environments, naming each problem", async () => {
      const e = await rejectsWithPortalError(
        writeConfig(deps, "checkout-api", [{ environment: "qa", values: { "bad key": 1, nested: { a: 1 } } }], { view: "persistent", user: operator, direct: true }),
      );
      expect(e.code).toBe("invalid-config");
      const paths = (e.issues ?? []).map((i) => i.path);
      expect(paths).toContainEqual(["updates", "0", "environment"]);
      expect(paths.some((p) => p.includes("nested"))).toBe(true);
    });

    it("a bulk update with one bad entry writes nothing", async () => {
      const head = await deps.config.head();
      const e = await rejectsWithPortalError(
        writeConfig(
          deps,
          "checkout-api",
          [
            { environment: "dev", values: { LOG_LEVEL: "debug" } },
            { environment: "production", values: { WORKERS: "x".repeat(5000) } },
          ],
          { view: "persistent", user: operator, direct: true },
        ),
      );
      expect(e.code).toBe("invalid-config");
      expect(await deps.config.head()).toBe(head);
      expect(await deps.config.readText(configFilePath("checkout-api", "dev"))).toBeNull();
      await rejectsWithPortalError(writeConfig(deps, "checkout-api", [{ environment: "dev", values: { A: 1 } }, { environment: "dev", values: { B: 2 } }], { view: "current", user: operator, direct: true }));
      const current = await getConfig(deps, "checkout-api", "current");
      expect(current.environments.find((x) => x.environment === "dev")?.values).toEqual({});
    });

    it("a bulk update whose commit fails leaves files and history as they were", async () => {
      // The branch is locked by another git process: the compare-and-swap of the ref cannot happen.
      const lock = path.join(repo.catalog.repo.dir, ".git", "refs", "heads", "main.lock");
      await writeFile(lock, "");
      const head = await deps.config.head();
      try {
        const e = await rejectsWithPortalError(
          writeConfig(
            deps,
            "checkout-api",
            [
              { environment: "dev", values: { LOG_LEVEL: "debug" } },
              { environment: "staging", values: { WORKERS: 2 } },
            ],
            { view: "persistent", user: operator, direct: true },
          ),
        );
        expect(e.code).toBe("conflict");
      } finally {
        await rm(lock, { force: true });
      }
      expect(await deps.config.head()).toBe(head);
      expect(await deps.config.readText(configFilePath("checkout-api", "dev"))).toBeNull();
      expect(await deps.config.readValues("checkout-api", "staging")).toEqual({ LOG_LEVEL: "info", WORKERS: 8 });
      const status = await repo.catalog.repo.git.status();
      expect(status.isClean()).toBe(true);
    });

    it("a bulk update succeeds as one commit", async () => {
      const before = (await repo.catalog.repo.git.log()).total;
      await writeConfig(
        deps,
        "checkout-api",
        [
          { environment: "dev", values: { LOG_LEVEL: "debug" } },
          { environment: "production", values: { LOG_LEVEL: "warn", WORKERS: 16 } },
        ],
        { view: "persistent", user: operator, direct: true },
      );
      expect((await repo.catalog.repo.git.log()).total).toBe(before + 1);
      expect(await deps.config.readValues("checkout-api", "production")).toEqual({ LOG_LEVEL: "warn", WORKERS: 16 });
    });

    it("engineers propose a merge request; it is listed for the component and merging it persists the values", async () => {
      const head = await deps.config.head();
      const r = await writeConfig(deps, "checkout-api", [{ environment: "sandbox", values: { SANDBOX: true } }], { view: "persistent", user: engineer, direct: false });
      expect(r.mode).toBe("merge_request");
      if (r.mode !== "merge_request") return;
      expect(r.mergeRequest.sourceBranch).toMatch(/^portal\/checkout-api\//);
      expect(await deps.config.head()).toBe(head);
      const open = await openMergeRequests(deps, "checkout-api");
      expect(open.mergeRequests.map((m) => [m.source, m.iid])).toEqual([["config", r.mergeRequest.iid]]);
      await configProvider.mergeMergeRequest("portal/config", r.mergeRequest.iid);
      expect(await deps.config.readValues("checkout-api", "sandbox")).toEqual({ SANDBOX: true });
      expect((await openMergeRequests(deps, "checkout-api")).mergeRequests).toEqual([]);
    });
  });

  describe("releases", () => {
    it("concurrent staging releases never produce the same version twice", async () => {
      const results = await Promise.all(Array.from({ length: 5 }, () => createRelease(deps, "checkout-api", { environment: "staging" }, operator)));
      const versions = results.map((r) => r.version).sort();
      expect(new Set(versions).size).toBe(5);
      expect(versions).toEqual(["0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0"]);
      const tags = (await deps.scm.listTags("commerce/checkout-api")).map((t) => t.name);
      for (const v of versions) expect(tags).toContain(`v${v}`);
    });

    it("a major release, at a given ref; the release makes the persistent config current", async () => {
      const sha = await deps.scm.resolveRef("commerce/checkout-api", "main~1");
      const r = await createRelease(deps, "checkout-api", { environment: "staging", releaseType: "major", sourceRef: "main~1" }, operator);
      expect(r).toMatchObject({ version: "1.0.0", tag: "v1.0.0", commitSha: sha, releasedBy: "olga", releaseType: "major", config: { LOG_LEVEL: "info", WORKERS: 8 } });
      const current = await getConfig(deps, "checkout-api", "current");
      expect(current.environments.find((e) => e.environment === "staging")).toMatchObject({ values: { LOG_LEVEL: "info", WORKERS: 8 }, drift: [], source: "release" });
    });

    it("promotes the latest staging version to production, or a named one", async () => {
      const p = await createRelease(deps, "checkout-api", { environment: "production" }, operator);
      expect(p).toMatchObject({ version: "1.0.0", releaseType: "promote", config: { LOG_LEVEL: "warn", WORKERS: 16 } });
      expect((await rejectsWithPortalError(createRelease(deps, "checkout-api", { environment: "production" }, operator))).code).toBe("already-released");
      const rollback = await createRelease(deps, "checkout-api", { environment: "production", sourceRef: "v0.5.0" }, operator);
      expect(rollback.version).toBe("0.5.0");
      expect((await rejectsWithPortalError(createRelease(deps, "checkout-api", { environment: "production", sourceRef: "9.9.9" }, operator))).code).toBe("not-releasable");
      expect(await deployedVersions(deps.db, "checkout-api")).toEqual({ staging: "1.0.0", production: "0.5.0" });
      expect((await listReleases(deps.db, "checkout-api", "production")).map((r) => r.version)).toEqual(["0.5.0", "1.0.0"]);
    });

    it("refuses environments the component does not have and unknown refs", async () => {
      expect((await rejectsWithPortalError(createRelease(deps, "docs-only", { environment: "staging" }, operator))).code).toBe("not-releasable");
      expect((await rejectsWithPortalError(createRelease(deps, "checkout-api", { environment: "staging", sourceRef: "no-such-branch" }, operator))).code).toBe("not-releasable");
      expect((await rejectsWithPortalError(createRelease(deps, "nope", { environment: "staging" }, operator))).code).toBe("not-found");
    });
  });

  describe("import", () => {
    it("lists repositories, marking those already in the catalog", async () => {
      const page = await listImportable(deps, { perPage: 100 });
      const byPath = new Map(page.items.map((r) => [r.path, r.inCatalog]));
      expect(byPath.get("commerce/checkout-api")).toBe("checkout-api");
      expect(byPath.get("growth/quest-engine")).toBeNull();
    });

    it("a dry run answers the inferred records and writes nothing; a kind chosen at review wins", async () => {
      const head = await deps.config.head();
      const open = (await deps.config.openMergeRequests()).length;
      const r = await importRepositories(deps, [{ path: "web/marketing-site", kind: "docs" }, "growth/quest-engine", "commerce/checkout-api"], { user: operator, direct: true, dryRun: true });
      expect(r).toMatchObject({ commit: null, mergeRequest: null });
      expect(r.results.map((x) => [x.repository, x.status, x.kind, x.inferredKind])).toEqual([
        ["web/marketing-site", "ready", "docs", "frontend"],
        ["growth/quest-engine", "ready", "service", "service"],
        ["commerce/checkout-api", "exists", null, null],
      ]);
      // The record follows the chosen kind: docs have no environments and no runtime.
      expect(r.results[0].component?.spec).toMatchObject({ kind: "docs", environments: [] });
      expect(r.results[0].component?.spec.runtime).toBeUndefined();
      expect(r.results[0].reasons.at(-1)).toBe("kind set to docs at review (inferred frontend)");
      expect(await deps.config.head()).toBe(head);
      expect((await deps.config.openMergeRequests()).length).toBe(open);
      expect(repo.catalog.get("marketing-site")).toBeUndefined();
    });

    it("engineers get one merge request for all repositories", async () => {
      const r = await importRepositories(deps, ["web/marketing-site", "growth/quest-engine"], { user: engineer, direct: false });
      expect(r.mergeRequest?.sourceBranch).toMatch(/^portal\/import\//);
      expect(r.results.map((x) => [x.repository, x.status, x.kind])).toEqual([
        ["web/marketing-site", "proposed", "frontend"],
        ["growth/quest-engine", "proposed", "service"],
      ]);
      expect(repo.catalog.get("quest-engine")).toBeUndefined();
    });

    it("operators import with one commit; a result per repository", async () => {
      const r = await importRepositories(deps, ["growth/quest-engine", "commerce/checkout-api", "nobody/missing"], { user: operator, direct: true });
      expect(r.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(r.results.map((x) => [x.repository, x.status])).toEqual([
        ["growth/quest-engine", "imported"],
        ["commerce/checkout-api", "exists"],
        ["nobody/missing", "failed"],
      ]);
      const entry = repo.catalog.get("quest-engine");
      expect(entry?.component.spec).toMatchObject({ kind: "service", repo: { path: "growth/quest-engine" }, owners: [{ user: "bob.nguyen", group: "growth" }] });
    });
  });

  describe("the same change sent twice (a double-click)", () => {
    const other = { id: "oscar", name: "Oscar Operator", email: "oscar@example.com" };

    it("a commit sent twice at once, or again just after, answers the first commit; another person's same values change nothing", async () => {
      const updates = [
        { environment: "dev", values: { TWICE_LEVEL: "debug" } },
        { environment: "staging", values: { TWICE_LEVEL: "info" } },
      ];
      const commits = (await repo.catalog.repo.git.log()).total;
      const both = await Promise.all([0, 1].map(() => writeConfig(deps, "checkout-api", updates, { view: "persistent", user: operator, direct: true })));
      expect((await repo.catalog.repo.git.log()).total).toBe(commits + 1);
      const head = await deps.config.head();
      for (const r of both) expect(r).toMatchObject({ mode: "commit", commit: head, changed: true });
      expect(await writeConfig(deps, "checkout-api", updates, { view: "persistent", user: operator, direct: true })).toMatchObject({ commit: head, changed: true });
      // Someone else sending the values already there: nothing to commit, and no commit of theirs to answer.
      expect(await writeConfig(deps, "checkout-api", updates, { view: "persistent", user: other, direct: true })).toMatchObject({ mode: "commit", commit: null, changed: false });
      // Long after the commit, the same values are "nothing changed" again.
      expect(await deps.config.recentCommitOf([configFilePath("checkout-api", "dev"), configFilePath("checkout-api", "staging")], `Config of checkout-api: dev, staging\n\nChanged in the portal by olga.`, operator, 60_000, Date.now() + 61_000)).toBeNull();
      expect(await deps.config.head()).toBe(head);
    });

    it("a proposal sent twice at once, or again while open, answers one merge request; another author's, or a new one after closing, is its own", async () => {
      const updates = [{ environment: "sandbox", values: { TWICE_PROPOSED: 1 } }];
      const propose = (user: typeof engineer) => writeConfig(deps, "checkout-api", updates, { view: "persistent", user, direct: false });
      const both = await Promise.all([propose(engineer), propose(engineer)]);
      const iids = both.map((r) => (r.mode === "merge_request" ? r.mergeRequest.iid : null));
      expect(iids[0]).not.toBeNull();
      expect(iids[1]).toBe(iids[0]);
      const again = await propose(engineer);
      expect(again.mode === "merge_request" && again.mergeRequest).toMatchObject({ iid: iids[0], state: "opened" });
      const open = (await deps.config.openMergeRequests("checkout-api")).filter((m) => m.title === "Config of checkout-api: sandbox" && m.author === engineer.id);
      expect(open.map((m) => m.iid)).toEqual([iids[0]]);

      const someoneElse = await propose({ id: "erin", name: "Erin Engineer", email: "erin@example.com" });
      expect(someoneElse.mode === "merge_request" && someoneElse.mergeRequest.iid).not.toBe(iids[0]);

      await configProvider.closeMergeRequest("portal/config", iids[0]!);
      const reopened = await propose(engineer);
      expect(reopened.mode === "merge_request" && reopened.mergeRequest).toMatchObject({ state: "opened" });
      expect(reopened.mode === "merge_request" && reopened.mergeRequest.iid).not.toBe(iids[0]);
    });
  });
});
