// Route handlers of the catalog API on a real portal (test-support/portal/test-portal.ts): the portal database on
// PGlite (PostgreSQL when TEST_DATABASE_URL is set), a catalog in a temp git repository, local source
// control, and users signed in with personal API tokens through the real authorizer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";
import { componentReleases } from "@/lib/portal/db/schema";
import type { LocalScmProvider } from "@/lib/scm/local";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";

const { GET: index } = await import("@/app/api/route");
const { GET: list } = await import("@/app/api/components/route");
const one = await import("@/app/api/components/[name]/route");
const fav = await import("@/app/api/components/[name]/favorite/route");
const { GET: favorites } = await import("@/app/api/components/favorites/route");
const { GET: status } = await import("@/app/api/components/[name]/status/route");
const { GET: options } = await import("@/app/api/options/route");
const { POST: refresh } = await import("@/app/api/cache/refresh/route");
const { GET: scorecards } = await import("@/app/api/scorecards/route");

// Signed in once the portal starts (beforeAll).
const signedIn: Record<string, Record<string, string>> = {};
const engineer = (id = "alice") => signedIn[id]!;
let operator: Record<string, string>;
const ctx = (name: string) => ({ params: Promise.resolve({ name }) });
const req = (url: string, init: RequestInit = {}) => new Request(`http://portal.test${url}`, init);

let portal: PortalTest;
beforeAll(async () => {
  portal = await startPortalTest({ components: { "a.yaml": yamlOf(validComponent("alpha"), "alpha"), "b.yaml": yamlOf(validComponent("beta")), "bad.yaml": "kind: [\n" } });
  for (const id of ["alice", "bob"]) signedIn[id] = await portal.signIn({ id, roles: ["engineer"] }, "token");
  operator = await portal.signIn({ id: "olga", name: "Olga", roles: ["engineer", "operator"] }, "token");
});
afterAll(async () => {
  await portal?.close();
});

describe("catalog routes", () => {
  it("every route needs a signed-in user", async () => {
    expect((await index(req("/api"))).status).toBe(401);
    expect((await list(req("/api/components"))).status).toBe(401);
    expect((await one.GET(req("/api/components/alpha"), ctx("alpha"))).status).toBe(401);
    expect((await favorites(req("/api/components/favorites"))).status).toBe(401);
    expect((await status(req("/api/components/alpha/status"), ctx("alpha"))).status).toBe(401);
    expect((await options(req("/api/options"))).status).toBe(401);
    expect((await fav.POST(req("/api/components/alpha/favorite", { method: "POST" }), ctx("alpha"))).status).toBe(401);
  });

  it("GET /api answers the root index with every portal endpoint and the errors", async () => {
    const body = await (await index(req("/api", { headers: engineer() }))).json();
    expect(Object.keys(body)).toEqual(["service", "configDir", "endpoints", "components", "errors"]);
    expect(body.components.map((c: { metadata: { name: string } }) => c.metadata.name)).toEqual(["alpha", "beta"]);
    expect(body.errors).toEqual([{ file: "components/bad.yaml", path: "", message: expect.stringMatching(/YAML/) }]);
    expect(body.endpoints.favoriteAdd).toEqual({ method: "POST", path: "/api/components/:name/favorite", description: "Mark favorite" });
    expect(Object.keys(body.endpoints).length).toBeGreaterThanOrEqual(29);
  });

  it("GET /api/components filters and sorts by scorecard level, and refuses a level the rules do not define with a 400 naming the levels", async () => {
    // The default rules: alpha and beta have two owners and run in production, but set no description: no level.
    const none = await (await list(req("/api/components?level=none&sort=level", { headers: engineer() }))).json();
    expect(none.items.map((i: { name: string; level: string | null }) => [i.name, i.level])).toEqual([
      ["alpha", null],
      ["beta", null],
    ]);
    expect((await (await list(req("/api/components?level=gold", { headers: engineer() }))).json()).total).toBe(0);
    const refused = await list(req("/api/components?level=platinum", { headers: engineer() }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      message: "invalid-request",
      issues: [{ path: ["level"], message: '"platinum" is not a scorecard level; the levels are bronze, silver, gold, none' }],
    });
    expect((await list(req("/api/components?level=Not%20A%20Level", { headers: engineer() }))).status).toBe(400);
  });

  it("GET /api/scorecards answers the rules in force and the components per level", async () => {
    expect((await scorecards(req("/api/scorecards"))).status).toBe(401);
    const body = await (await scorecards(req("/api/scorecards", { headers: engineer() }))).json();
    expect(body.rules.levels).toEqual(["bronze", "silver", "gold"]);
    expect(body.rules.rules.map((r: { id: string }) => r.id)).toEqual(["description", "two-owners", "production", "lifecycle", "reviews-decided", "api-docs", "recent-release"]);
    expect(body.rollup).toMatchObject({ components: 2, levels: { none: 2, bronze: 0, silver: 0, gold: 0 } });
  });

  it("GET /api/components validates its query and answers items, total and counts", async () => {
    expect((await list(req("/api/components?kind=nope", { headers: engineer() }))).status).toBe(400);
    const body = await (await list(req("/api/components?q=alp", { headers: engineer() }))).json();
    expect(body).toMatchObject({ total: 1, page: 1, items: [{ name: "alpha", favorite: false }], counts: { all: 2, errors: 1 } });
  });

  it("names: bad → 400, unknown → 404", async () => {
    for (const bad of ["..", "a/b", "%2e%2e", "A"]) expect((await one.GET(req("/api/components/x", { headers: engineer() }), ctx(bad))).status).toBe(400);
    expect((await one.GET(req("/api/components/gone", { headers: engineer() }), ctx("gone"))).status).toBe(404);
    expect((await status(req("/api/components/gone/status", { headers: engineer() }), ctx("gone"))).status).toBe(404);
  });

  it("GET → ETag; PATCH needs If-Match (428), stale → 412, bad body → 400/422, good → 200 with a new ETag", async () => {
    const got = await one.GET(req("/api/components/alpha", { headers: engineer() }), ctx("alpha"));
    const etag = got.headers.get("etag")!;
    expect((await got.json()).yaml).toContain("# alpha");
    const cached = await one.GET(req("/api/components/alpha", { headers: { ...engineer(), "If-None-Match": etag } }), ctx("alpha"));
    expect(cached.status).toBe(304);
    const patch = (headers: Record<string, string>, body: string) => one.PATCH(req("/api/components/alpha", { method: "PATCH", headers: { ...engineer(), ...headers }, body }), ctx("alpha"));
    const unconditional = await patch({}, "{}");
    expect(unconditional.status).toBe(428);
    expect(await unconditional.json()).toEqual({ message: "precondition-required", detail: expect.stringContaining("If-Match is required") });
    const stale = await patch({ "If-Match": '"old"' }, "{}");
    expect(stale.status).toBe(412);
    expect(stale.headers.get("etag")).toBe(etag);
    expect(await stale.json()).toEqual({ message: "precondition-failed", detail: expect.stringContaining("changed since you loaded it"), etag });
    const malformed = await patch({ "If-Match": etag }, "{nope");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ message: "invalid-request", detail: "the body is not valid JSON" });
    const invalid = await patch({ "If-Match": etag }, JSON.stringify({ spec: { environments: "all" } }));
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({
      message: "invalid-record",
      detail: expect.stringContaining("spec.environments"),
      issues: [{ path: ["spec", "environments"], message: expect.any(String) }],
    });
    const tooLong = await patch({ "If-Match": etag }, JSON.stringify({ metadata: { displayName: "A".repeat(101) } }));
    expect(tooLong.status).toBe(422);
    expect(await tooLong.json()).toEqual({
      message: "invalid-record",
      detail: expect.stringContaining("metadata.displayName"),
      issues: [{ path: ["metadata", "displayName"], message: "displayName must be at most 100 characters" }],
    });
    const ok = await patch({ "If-Match": etag }, JSON.stringify({ metadata: { displayName: "Alpha!" } }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("etag")).not.toBe(etag);
    expect((await ok.json()).component.metadata.displayName).toBe("Alpha!");
    expect((await patch({ "If-Match": etag }, JSON.stringify({ metadata: { displayName: "Lost" } }))).status).toBe(412);
  });

  it("PUT replaces the record", async () => {
    const got = await one.GET(req("/api/components/beta", { headers: engineer() }), ctx("beta"));
    const etag = got.headers.get("etag")!;
    const record = { ...validComponent("beta"), metadata: { name: "beta", displayName: "Beta Two" } };
    const put = await one.PUT(req("/api/components/beta", { method: "PUT", headers: { ...engineer(), "If-Match": etag }, body: JSON.stringify(record) }), ctx("beta"));
    expect(put.status).toBe(200);
    expect(portal.catalog.get("beta")?.component.metadata.displayName).toBe("Beta Two");
  });

  it("favorites are per user", async () => {
    const starred = async (id: string) => ((await (await list(req("/api/components?q=alpha", { headers: engineer(id) }))).json()) as { items: { favorite: boolean }[] }).items[0].favorite;
    // Read first, so the star below lands on a user whose favorites are already in memory.
    expect(await starred("alice")).toBe(false);
    expect((await fav.POST(req("/x", { method: "POST", headers: engineer("alice") }), ctx("alpha"))).status).toBe(200);
    expect(await starred("alice")).toBe(true);
    expect(await starred("bob")).toBe(false);
    expect((await fav.POST(req("/x", { method: "POST", headers: engineer("alice") }), ctx("nope"))).status).toBe(404);
    const alice = await (await favorites(req("/api/components/favorites", { headers: engineer("alice") }))).json();
    const bob = await (await favorites(req("/api/components/favorites", { headers: engineer("bob") }))).json();
    expect(alice.names).toEqual(["alpha"]);
    expect(bob.names).toEqual([]);
    const listed = await (await list(req("/api/components?favorites=1", { headers: engineer("alice") }))).json();
    expect(listed.items.map((i: { name: string }) => i.name)).toEqual(["alpha"]);
    expect((await fav.DELETE(req("/x", { method: "DELETE", headers: engineer("alice") }), ctx("alpha"))).status).toBe(200);
    expect((await (await favorites(req("/api/components/favorites", { headers: engineer("alice") }))).json()).names).toEqual([]);
    expect(await starred("alice")).toBe(false);
  });

  it("status has one entry per environment", async () => {
    const body = await (await status(req("/x", { headers: engineer() }), ctx("alpha"))).json();
    expect(body.openMergeRequests).toBe(0);
    expect(body.environments[0]).toEqual({ environment: "dev", namespace: "alpha-dev", deployedVersion: null });
  });

  it("status carries GitOps' deployed versions and open merge requests", async () => {
    // A release in dev and three open merge requests on alpha's repository, really recorded.
    const scm = portal.gitops.scm as LocalScmProvider;
    const repository = "commerce/alpha";
    const author = { name: "Alice", email: "alice@example.com" };
    await scm.createRepository(repository);
    await scm.commitFiles(repository, { branch: "main", message: "Initial commit", author, files: [{ path: "README.md", content: "# alpha\n" }] });
    const opened: number[] = [];
    for (const n of [1, 2, 3]) {
      await scm.commitFiles(repository, { branch: `change-${n}`, startBranch: "main", message: `Change ${n}`, author, files: [{ path: `change-${n}.md`, content: `${n}\n` }] });
      opened.push((await scm.openMergeRequest(repository, { sourceBranch: `change-${n}`, targetBranch: "main", title: `Change ${n}` })).iid);
    }
    const [release] = await portal.db
      .insert(componentReleases)
      .values({ component: "alpha", environment: "dev", version: "1.2.0", tag: "v1.2.0", commitSha: "0".repeat(40), sourceRef: "main", releaseType: "minor", releasedBy: "olga" })
      .returning();
    try {
      const body = await (await status(req("/x", { headers: engineer() }), ctx("alpha"))).json();
      expect(body.openMergeRequests).toBe(3);
      expect(body.environments[0]).toEqual({ environment: "dev", namespace: "alpha-dev", deployedVersion: "1.2.0" });
    } finally {
      await portal.db.delete(componentReleases).where(eq(componentReleases.id, release!.id));
      for (const iid of opened) await scm.closeMergeRequest(repository, iid);
    }
  });

  it("options lists the values forms need", async () => {
    const body = await (await options(req("/api/options", { headers: engineer() }))).json();
    expect(body).toMatchObject({ kinds: expect.arrayContaining(["library"]), environments: ["dev", "staging", "sandbox", "production"], groups: ["commerce/backend"], registries: ["npm.example.com"] });
  });

  it("cache refresh is for operators; counts, errors, and one record by name", async () => {
    expect((await refresh(req("/api/cache/refresh", { method: "POST", headers: engineer() }))).status).toBe(403);
    const all = await refresh(req("/api/cache/refresh", { method: "POST", headers: operator }));
    expect(all.status).toBe(200);
    expect(await all.json()).toMatchObject({ components: 2, errorCount: 1, stale: 0, changes: { changed: 0, added: 0, removed: 0, errorsBefore: 1, errorsAfter: 1 } });
    const one = await refresh(req("/api/cache/refresh?name=alpha", { method: "POST", headers: operator }));
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ name: "alpha", changed: false, removed: false, errorCount: 1 });
    expect((await refresh(req("/api/cache/refresh?name=..", { method: "POST", headers: operator }))).status).toBe(400);
    expect((await refresh(req("/api/cache/refresh?name=zzz", { method: "POST", headers: operator }))).status).toBe(404);
  });
});

describe("record edits follow the rule of config edits", () => {
  const patch = (who: Record<string, string>, body: unknown) =>
    one.PATCH(req("/api/components/beta", { method: "PATCH", headers: { ...who, "If-Match": "*", "Content-Type": "application/json" }, body: JSON.stringify(body) }), ctx("beta"));

  it("tells each user whether they commit", async () => {
    const carol = await portal.signIn({ id: "carol", roles: ["engineer"] }, "token");
    const can = async (who: Record<string, string>) => (await (await one.GET(req("/api/components/beta", { headers: who }), ctx("beta"))).json()).canCommit;
    expect(await can(engineer("alice"))).toBe(true);
    expect(await can(operator)).toBe(true);
    expect(await can(carol)).toBe(false);
  });

  it("a non-owner's edit opens a merge request (202) holding the new YAML; the record stays until it is merged", async () => {
    const carol = await portal.signIn({ id: "carol", roles: ["engineer"] }, "token");
    const before = portal.catalog.get("beta")?.component.metadata.displayName;
    const res = await patch(carol, { metadata: { displayName: "Beta by Carol" } });
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body).toMatchObject({ name: "beta", reviewUrl: `/reviews/${body.mergeRequest.iid}`, mergeRequest: { state: "opened", sourceBranch: expect.stringMatching(/^portal\/beta\//) }, proposed: { metadata: { displayName: "Beta by Carol" } } });
    expect(portal.catalog.get("beta")?.component.metadata.displayName).toBe(before);
    const { provider, repo } = portal.gitops.config.target;
    const onBranch = await provider.readFile(repo, "components/b.yaml", body.mergeRequest.sourceBranch);
    expect(onBranch).toContain("displayName: Beta by Carol");
    const byUser = await (await one.GET(req("/api/components/beta", { headers: carol }), ctx("beta"))).json();
    expect(byUser.component.metadata.displayName).toBe(before);
  });

  it("an invalid edit from a non-owner is refused like any other and opens nothing", async () => {
    const carol = await portal.signIn({ id: "carol", roles: ["engineer"] }, "token");
    const { provider, repo } = portal.gitops.config.target;
    const open = (await provider.listMergeRequests(repo, { state: "all" })).length;
    const res = await patch(carol, { spec: { kind: "spaceship" } });
    expect(res.status).toBe(422);
    expect((await res.json()).message).toBe("invalid-record");
    expect((await provider.listMergeRequests(repo, { state: "all" })).length).toBe(open);
  });

  it("owners and operators commit (200)", async () => {
    const owner = await patch(engineer("bob"), { metadata: { displayName: "Beta by Bob" } });
    expect(owner.status).toBe(200);
    expect((await owner.json()).commit).toMatch(/^[0-9a-f]{40}$/);
    const op = await patch(operator, { metadata: { displayName: "Beta by Olga" } });
    expect(op.status).toBe(200);
    expect(portal.catalog.get("beta")?.component.metadata.displayName).toBe("Beta by Olga");
  });
});
