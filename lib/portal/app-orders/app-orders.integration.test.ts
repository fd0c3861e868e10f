/**
 * App orders on real git (the config repository's working copy served by the local provider, merge
 * requests in the portal database) and the portal database (PGlite; PostgreSQL too when TEST_DATABASE_URL is set).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as schema from "../db/schema";
import { testDatabaseTargets, type TestDatabase } from "@/test-support/db/test-databases";
import { tempCatalog, validComponent, yamlOf, type TempRepo } from "@/test-support/catalog/temp-catalog";
import { LocalScmProvider } from "../../scm/local";
import { dbMergeRequestStore } from "../gitops/merge-request-store";
import { ConfigRepository } from "../gitops/config-repo";
import { PortalError } from "../errors";
import { listAudit } from "../audit-store";
import { eq } from "drizzle-orm";
import { RepoGit } from "../../scm/git";
import { appOrders } from "../db/schema/app-orders";
import { createOrder, getOrder, listOrders, openOrderMergeRequests, pendingCount, type Actor } from "./orders";
import { approveOrder, recoverInterruptedApprovals, rejectOrder, STALE_APPROVING_MS } from "./order-decisions";
import { listResourceRequests } from "./resource-requests";
import { buildRecord, resourceRequestListSchema, validateOrder, type OrderInput } from "./model";
import { openPortalTestDatabase, rejectsWithPortalError } from "@/test-support/portal/test-portal";

const eddie: Actor = { id: "eddie", name: "Eddie Engineer", email: "eddie@example.com", requestId: "req-eddie" };
const lee: Actor = { id: "lee", name: "Lee Lead", requestId: "req-lee" };
const lena: Actor = { id: "lena", name: "Lena Lead", requestId: "req-lena" };

function order(name: string, overrides: Partial<OrderInput> = {}): OrderInput {
  return {
    name,
    displayName: `The ${name}`,
    kind: "service",
    owners: [{ user: "eddie", group: "commerce/backend" }],
    environments: ["dev", "production"],
    dependencies: { mongo: true, redis: true },
    repoPath: `commerce/${name}`,
    ...overrides,
  };
}

describe("order model (shared with the wizard)", () => {
  it("builds a Component record and validates it with the catalog's schema, naming record paths", () => {
    const ok = validateOrder(order("cart-api"));
    expect(ok.ok).toBe(true);
    expect(buildRecord(order("cart-api", { dependencies: { mongo: false, pubsub: true } }))).toMatchObject({
      kind: "Component",
      metadata: { name: "cart-api", displayName: "The cart-api" },
      spec: { kind: "service", repo: { path: "commerce/cart-api" }, dependencies: { pubsub: true } },
    });
    const bad = validateOrder(order("Bad Name", { kind: "spaceship", owners: [], repoPath: "nogroup", environments: ["dev", "dev"] }));
    expect(bad.ok).toBe(false);
    const paths = bad.ok ? [] : bad.issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(["metadata.name", "spec.kind", "spec.owners", "spec.repo.path", "spec.environments"]));
    expect(validateOrder({ name: 1 }).ok).toBe(false);
    // The catalog's limits hold for orders too: the wizard shows the display name's at its field.
    const long = validateOrder(order("cart-api", { displayName: "x".repeat(101) }));
    expect(long.ok ? [] : long.issues.map((i) => i.path)).toEqual(["metadata.displayName"]);
  });
});

describe.each(testDatabaseTargets())("app orders on %s", (target) => {
  let db: TestDatabase<typeof schema>;
  let repo: TempRepo;
  let root: string;
  let deps: { db: TestDatabase<typeof schema>["db"]; catalog: TempRepo["catalog"]; config: ConfigRepository };
  let provider: LocalScmProvider;

  beforeAll(async () => {
    db = await openPortalTestDatabase(target);
    repo = await tempCatalog({ "checkout-api.yaml": yamlOf(validComponent("checkout-api", { repo: { path: "commerce/checkout-api" } }), "the checkout") });
    root = await mkdtemp(path.join(tmpdir(), "app-orders-repos-"));
    provider = new LocalScmProvider({
      root,
      store: dbMergeRequestStore(db.db),
      workingCopies: { "portal/config": repo.catalog.workingCopy() },
    });
    deps = { db: db.db, catalog: repo.catalog, config: new ConfigRepository(repo.catalog, { provider, repo: "portal/config" }) };
  });
  afterAll(async () => {
    await db?.close();
    await repo?.cleanup();
    await rm(root, { recursive: true, force: true });
  });

  const mergeCommitsOf = async (branch: string) => (await repo.catalog.repo.git.log(["main"])).all.filter((c) => c.message.startsWith(`Merge branch '${branch}'`)).length;

  it("an order opens a merge request adding the record and its resource requests; the default branch is untouched", async () => {
    const head = await deps.config.head();
    const o = await createOrder(deps, order("cart-api"), eddie);
    expect(o).toMatchObject({ name: "cart-api", status: "pending", requester: "eddie", requesterName: "Eddie Engineer", mergeRequest: { repository: "portal/config", iid: expect.any(Number) } });
    expect(o.mergeRequest?.sourceBranch).toMatch(/^portal\/cart-api\//);
    expect(o.resources).toEqual([
      { environment: "dev", resource: "mongo" },
      { environment: "dev", resource: "redis" },
      { environment: "production", resource: "mongo" },
      { environment: "production", resource: "redis" },
    ]);
    expect(await deps.config.head()).toBe(head);
    expect(repo.catalog.get("cart-api")).toBeUndefined();
    const record = await provider.readFile("portal/config", "components/cart-api.yaml", o.mergeRequest?.sourceBranch ?? "");
    expect(record).toContain("name: cart-api");
    expect(record).toMatch(/^# The cart-api: ordered in the portal by eddie/);
    const resources = await provider.readFile("portal/config", "resources/cart-api.yaml", o.mergeRequest?.sourceBranch ?? "");
    expect(resources).toContain("type: mongo");
    expect(await pendingCount(deps)).toBe(1);
    const open = await openOrderMergeRequests(deps);
    expect(open.map((x) => [x.order.name, x.mergeRequest?.state])).toEqual([["cart-api", "opened"]]);
    const audit = await listAudit(db.db, { action: "order.create" });
    expect(audit.entries[0]).toMatchObject({ actor: "eddie", action: "order.create", targetType: "order", target: o.id, component: "cart-api", requestId: "req-eddie" });
  });

  it("refuses an invalid order (422 with record paths) and a name already in the catalog or already ordered (409)", async () => {
    const invalid = await rejectsWithPortalError(createOrder(deps, order("x", { repoPath: "no-group", owners: [] }), eddie));
    expect(invalid.code).toBe("invalid-record");
    expect((invalid.issues ?? []).map((i) => i.path)).toEqual(expect.arrayContaining([["spec", "repo", "path"], ["spec", "owners"]]));
    expect((await rejectsWithPortalError(createOrder(deps, order("checkout-api"), eddie))).code).toBe("name-taken");
    const dup = await rejectsWithPortalError(createOrder(deps, order("cart-api"), lena));
    expect(dup.code).toBe("name-taken");
    expect(dup.message).toMatch(/already ordered/);
  });

  it("two orders of one name at once: one is created, the other 409", async () => {
    const results = await Promise.allSettled([createOrder(deps, order("twin-api"), eddie), createOrder(deps, order("twin-api"), lena)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((failed.reason as PortalError).code).toBe("name-taken");
    expect((await listOrders(deps, { status: "pending" })).filter((o) => o.name === "twin-api")).toHaveLength(1);
  });

  it("a requester cannot approve their own order (403 that says so)", async () => {
    const [o] = await listOrders(deps, { requester: "eddie", status: "pending" }).then((l) => l.filter((x) => x.name === "cart-api"));
    const e = await rejectsWithPortalError(approveOrder(deps, o.id, { ...eddie, requestId: "r" }));
    expect(e.code).toBe("own-order");
    expect(e.message).toMatch(/cannot approve your own order/);
    expect((await getOrder(deps, o.id))?.status).toBe("pending");
  });

  it("a lead approves: the merge request is merged and the component is in the catalog; approving twice → 409", async () => {
    const [o] = (await listOrders(deps, { status: "pending" })).filter((x) => x.name === "cart-api");
    const r = await approveOrder(deps, o.id, lee);
    expect(r.inCatalog).toBe(true);
    expect(r.order).toMatchObject({ status: "approved", decidedBy: "lee", mergeRequest: { mergeCommitSha: expect.any(String) } });
    expect(repo.catalog.get("cart-api")?.component.metadata.displayName).toBe("The cart-api");
    expect(await readFile(path.join(repo.catalog.repo.dir, "resources/cart-api.yaml"), "utf8")).toContain("requestedBy: eddie");
    expect((await provider.getMergeRequest("portal/config", o.mergeRequest?.iid ?? 0))?.state).toBe("merged");
    const again = await rejectsWithPortalError(approveOrder(deps, o.id, lena));
    expect(again.code).toBe("order-decided");
    expect(again.message).toMatch(/already approved by lee/);
    expect((await rejectsWithPortalError(rejectOrder(deps, o.id, "too late", lena))).code).toBe("order-decided");
    const audit = await listAudit(db.db, { action: "order.approve", target: o.id });
    expect(audit.entries).toHaveLength(1);
    expect(audit.entries[0]).toMatchObject({ actor: "lee", component: "cart-api", before: { status: "pending" }, after: { status: "approved" } });
    // Once in the catalog, the name cannot be ordered again.
    expect((await rejectsWithPortalError(createOrder(deps, order("cart-api"), lena))).code).toBe("name-taken");
  });

  it("two leads approving at once: one merge, the other 409", async () => {
    const o = await createOrder(deps, order("race-api", { dependencies: {} }), eddie);
    const results = await Promise.allSettled([approveOrder(deps, o.id, lee), approveOrder(deps, o.id, lena)]);
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok).toHaveLength(1);
    const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((failed.reason as PortalError).code).toBe("order-decided");
    expect(await mergeCommitsOf(o.mergeRequest?.sourceBranch ?? "")).toBe(1);
    expect((await listAudit(db.db, { action: "order.approve", target: o.id })).entries).toHaveLength(1);
    expect(repo.catalog.get("race-api")).toBeDefined();
  });

  it("reject needs a reason; it closes the merge request and the requester sees the reason; approving afterwards → 409", async () => {
    const o = await createOrder(deps, order("nope-api"), eddie);
    const noReason = await rejectsWithPortalError(rejectOrder(deps, o.id, "   ", lee));
    expect(noReason).toMatchObject({ code: "invalid-request", issues: [{ path: ["reason"] }] });
    expect(noReason.message).toMatch(/reason is required/);
    const rejected = await rejectOrder(deps, o.id, "Use the existing cart service instead.", lee);
    expect(rejected).toMatchObject({ status: "rejected", reason: "Use the existing cart service instead.", decidedBy: "lee" });
    expect((await provider.getMergeRequest("portal/config", o.mergeRequest?.iid ?? 0))?.state).toBe("closed");
    const mine = await listOrders(deps, { requester: "eddie" });
    expect(mine.find((x) => x.id === o.id)).toMatchObject({ status: "rejected", reason: "Use the existing cart service instead." });
    const late = await rejectsWithPortalError(approveOrder(deps, o.id, lena));
    expect(late.code).toBe("order-decided");
    expect(late.message).toMatch(/rejected by lee: Use the existing cart service/);
    expect((await rejectsWithPortalError(rejectOrder(deps, o.id, "again", lena))).code).toBe("order-decided");
    expect(repo.catalog.get("nope-api")).toBeUndefined();
    const audit = await listAudit(db.db, { action: "order.reject" });
    expect(audit.entries[0]).toMatchObject({ actor: "lee", target: o.id, after: { status: "rejected", reason: "Use the existing cart service instead." } });
    // A rejected name can be ordered again.
    const retry = await createOrder(deps, order("nope-api"), eddie);
    expect(retry.status).toBe("pending");
    await rejectOrder(deps, retry.id, "still no", lee);
  });

  it("an unknown order answers 404", async () => {
    expect((await rejectsWithPortalError(approveOrder(deps, "00000000-0000-0000-0000-000000000000", lee))).code).toBe("not-found");
    expect((await rejectsWithPortalError(rejectOrder(deps, "not-a-uuid", "x", lee))).code).toBe("not-found");
  });

  it("resource requests: requested, provisioned-by-merge and rejected, in the documented shape", async () => {
    await createOrder(deps, order("queue-worker", { environments: ["staging"], dependencies: { pubsub: true, gcpSecrets: true } }), lena);
    const all = await listResourceRequests(deps);
    expect(resourceRequestListSchema.parse(all)).toEqual(all);
    const pick = (component: string) => all.items.filter((i) => i.component === component).map((i) => `${i.environment}:${i.resource}:${i.status}:${i.source}`);
    expect(pick("queue-worker")).toEqual(["staging:gcpSecrets:requested:order", "staging:pubsub:requested:order"]);
    expect(pick("cart-api")).toEqual(["dev:mongo:provisioned-by-merge:component", "dev:redis:provisioned-by-merge:component", "production:mongo:provisioned-by-merge:component", "production:redis:provisioned-by-merge:component"]);
    expect(all.items.find((i) => i.component === "cart-api")).toMatchObject({ requestedBy: "eddie", orderId: expect.any(String) });
    // checkout-api is in the catalog without an order.
    expect(all.items.find((i) => i.component === "checkout-api")).toMatchObject({ status: "provisioned-by-merge", orderId: null, resource: "mongo" });
    expect(pick("nope-api").every((s) => s.includes(":rejected:"))).toBe(true);
    expect(all.items.find((i) => i.component === "nope-api")?.reason).toBeTruthy();
    const rejectedOnly = await listResourceRequests(deps, { status: "rejected", resource: "redis" });
    expect(rejectedOnly.items.every((i) => i.status === "rejected" && i.resource === "redis")).toBe(true);
    expect(rejectedOnly.counts["rejected"]).toBe(rejectedOnly.total);
  });

  describe("interrupted approvals", () => {
    /** What a process killed in the middle of an approval leaves: the order in approving, claimed by lee. */
    const leftApproving = async (id: string, at = new Date()) =>
      db.db.update(appOrders).set({ status: "approving", decidedBy: "lee", decidedAt: at, updatedAt: at }).where(eq(appOrders.id, id));
    /** The merge happened in git; the process died before the merge request's record and the order said so. */
    const mergeInGitOnly = async (branch: string) => {
      const git = new RepoGit(repo.catalog.repo.dir, { updateRef: (ref, sha, expected) => repo.catalog.store.advance(ref, sha, expected) });
      return repo.catalog.exclusive(() => git.merge({ target: "main", source: branch, message: `Merge branch '${branch}' into 'main'` }));
    };
    const emptyMerges = async () => {
      const out = (await repo.catalog.repo.git.raw(["rev-list", "--merges", "--parents", "main"])).trim().split("\n").filter(Boolean);
      let empty = 0;
      for (const line of out) {
        const [, first, second] = line.split(" ");
        if ((await repo.catalog.repo.git.raw(["merge-base", first, second])).trim() === second) empty++;
      }
      return empty;
    };

    it("at start-up, an order whose branch is already merged becomes approved without a second merge", async () => {
      const o = await createOrder(deps, order("crash-merged-api", { dependencies: {} }), eddie);
      const branch = o.mergeRequest?.sourceBranch ?? "";
      await leftApproving(o.id);
      const { sha } = await mergeInGitOnly(branch);
      const recovered = await recoverInterruptedApprovals(deps);
      expect(recovered).toEqual([{ id: o.id, name: "crash-merged-api", status: "approved", mergeCommit: sha }]);
      expect(await getOrder(deps, o.id)).toMatchObject({ status: "approved", decidedBy: "lee", mergeRequest: { mergeCommitSha: sha } });
      expect(await mergeCommitsOf(branch)).toBe(1);
      expect(await emptyMerges()).toBe(0);
      expect(repo.catalog.get("crash-merged-api")).toBeDefined();
      expect((await listAudit(db.db, { action: "order.approve", target: o.id })).entries).toHaveLength(1);
      // Nothing left to recover, and a second recovery changes nothing.
      expect(await recoverInterruptedApprovals(deps)).toEqual([]);
    });

    it("at start-up, an order whose merge request is still open is merged exactly once", async () => {
      const o = await createOrder(deps, order("crash-open-api", { dependencies: {} }), eddie);
      await leftApproving(o.id);
      const [r] = await recoverInterruptedApprovals(deps);
      expect(r).toMatchObject({ id: o.id, status: "approved", mergeCommit: expect.stringMatching(/^[0-9a-f]{40}$/) });
      expect(await mergeCommitsOf(o.mergeRequest?.sourceBranch ?? "")).toBe(1);
      expect((await provider.getMergeRequest("portal/config", o.mergeRequest?.iid ?? 0))?.state).toBe("merged");
      expect(repo.catalog.get("crash-open-api")).toBeDefined();
    });

    it("the takeover of a stale approval finds the merge done: approved, no second merge", async () => {
      const o = await createOrder(deps, order("crash-stale-api", { dependencies: {} }), eddie);
      const branch = o.mergeRequest?.sourceBranch ?? "";
      await leftApproving(o.id, new Date(Date.now() - STALE_APPROVING_MS - 1000));
      await mergeInGitOnly(branch);
      const r = await approveOrder(deps, o.id, lena);
      expect(r.order).toMatchObject({ status: "approved", decidedBy: "lena" });
      expect(await mergeCommitsOf(branch)).toBe(1);
      expect(await emptyMerges()).toBe(0);
    });
  });

  it("lists orders by status and requester", async () => {
    expect((await listOrders(deps, { status: "approved" })).map((o) => o.name).sort()).toEqual(["cart-api", "crash-merged-api", "crash-open-api", "crash-stale-api", "race-api"]);
    expect((await listOrders(deps, { requester: "lena" })).every((o) => o.requester === "lena")).toBe(true);
    expect(await pendingCount(deps)).toBe((await listOrders(deps, { status: "pending" })).length);
  });
});
