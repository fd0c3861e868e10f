// Route handlers on a real portal (test-support/portal/test-portal.ts): the portal database on PGlite (PostgreSQL
// when TEST_DATABASE_URL is set), a catalog in a temp git repository, local source control, and users
// signed in through the real authorizer: roles of the app-order routes, and an audit entry for every
// kind of change (GET /api/audit, admin only).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";
import type { LocalScmProvider } from "@/lib/scm/local";
import { DEMO_REPOSITORIES, ensureDemoRepositories } from "@/lib/scm/demo";
import type { AuditEntry } from "@/lib/portal/audit-store";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";
import type { Role } from "@/lib/portal/roles";

const orders = await import("@/app/api/app-order-requests/route");
const { GET: count } = await import("@/app/api/app-order-requests/pending/count/route");
const { GET: openMrs } = await import("@/app/api/app-order-requests/open-merge-requests/route");
const { POST: approve } = await import("@/app/api/app-order-requests/[id]/approve/route");
const { POST: reject } = await import("@/app/api/app-order-requests/[id]/reject/route");
const { GET: resources } = await import("@/app/api/resource-requests/route");
const { GET: audit } = await import("@/app/api/audit/route");
const component = await import("@/app/api/components/[name]/route");
const favorite = await import("@/app/api/components/[name]/favorite/route");
const { POST: refresh } = await import("@/app/api/cache/refresh/route");
const { POST: config } = await import("@/app/api/components/[name]/config/route");
const { POST: bulk } = await import("@/app/api/components/[name]/config/bulk/route");
const { POST: release } = await import("@/app/api/components/[name]/releases/route");
const { POST: importComponents } = await import("@/app/api/import/components/route");
const tokens = await import("@/app/api/tokens/route");
const token = await import("@/app/api/tokens/[id]/route");

// Session headers of each user, filled in once the portal starts (beforeAll).
const users: Array<[string, Role[]]> = [
  ["eddie", ["engineer"]],
  ["lee", ["engineer", "lead"]],
  ["lena", ["engineer", "lead"]],
  ["olga", ["engineer", "operator"]],
  ["admin", ["admin"]],
];
const signedIn: Record<string, Record<string, string>> = {};
let eddie: Record<string, string>, lee: Record<string, string>, lena: Record<string, string>, olga: Record<string, string>, admin: Record<string, string>;
const req = (url: string, init: RequestInit & { json?: unknown } = {}) => {
  const { json, ...rest } = init;
  return new Request(`http://portal.test${url}`, {
    ...rest,
    headers: { ...(json !== undefined ? { "Content-Type": "application/json" } : {}), ...(rest.headers as Record<string, string>) },
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
};
const byName = (name: string) => ({ params: Promise.resolve({ name }) });
const byId = (id: string) => ({ params: Promise.resolve({ id }) });
const orderBody = (name: string) => ({
  name,
  displayName: `The ${name}`,
  kind: "service",
  owners: [{ user: "eddie" }],
  environments: ["dev"],
  dependencies: { redis: true },
  repoPath: `commerce/${name}`,
});

let portal: PortalTest;
beforeAll(async () => {
  // eddie owns checkout-api: his edits commit; lena's are proposed.
  const owners = [{ user: "alice", group: "commerce/backend" }, { user: "eddie" }];
  portal = await startPortalTest({ components: { "checkout-api.yaml": yamlOf(validComponent("checkout-api", { repo: { path: "commerce/checkout-api" }, owners }), "the checkout") } });
  await ensureDemoRepositories(portal.gitops.scm as LocalScmProvider, DEMO_REPOSITORIES.filter((r) => ["commerce/checkout-api", "growth/quest-engine"].includes(r.path)));
  for (const [id, roles] of users) signedIn[id] = await portal.signIn({ id, name: `${id} (name)`, roles });
  ({ eddie, lee, lena, olga, admin } = signedIn as Record<"eddie" | "lee" | "lena" | "olga" | "admin", Record<string, string>>);
});
afterAll(async () => {
  await portal?.close();
});

async function auditEntries(query = ""): Promise<AuditEntry[]> {
  const res = await audit(req(`/api/audit?limit=200${query}`, { headers: admin }));
  expect(res.status).toBe(200);
  return (await res.json()).entries;
}

describe("app order routes", () => {
  let orderId = "";

  it("an engineer orders an app (201); the list filters by status and requester; the count and open merge requests follow", async () => {
    expect((await orders.POST(req("/api/app-order-requests", { method: "POST", json: orderBody("cart-api") }))).status).toBe(401);
    const created = await orders.POST(req("/api/app-order-requests", { method: "POST", headers: { ...eddie, "x-request-id": "order-req-1" }, json: orderBody("cart-api") }));
    expect(created.status).toBe(201);
    const order = await created.json();
    orderId = order.id;
    expect(order).toMatchObject({ name: "cart-api", status: "pending", requester: "eddie" });
    const invalid = await orders.POST(req("/api/app-order-requests", { method: "POST", headers: eddie, json: { ...orderBody("x2"), repoPath: "nope" } }));
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toMatchObject({ message: "invalid-record", issues: [{ path: ["spec", "repo", "path"], message: expect.any(String) }] });
    expect((await orders.POST(req("/api/app-order-requests", { method: "POST", headers: lena, json: orderBody("cart-api") }))).status).toBe(409);
    expect((await orders.POST(req("/api/app-order-requests", { method: "POST", headers: lena, json: orderBody("checkout-api") }))).status).toBe(409);

    const mine = await (await orders.GET(req("/api/app-order-requests?requester=me", { headers: eddie }))).json();
    expect(mine.orders.map((o: { name: string }) => o.name)).toEqual(["cart-api"]);
    expect((await (await orders.GET(req("/api/app-order-requests?requester=me", { headers: lee }))).json()).orders).toEqual([]);
    expect((await orders.GET(req("/api/app-order-requests?status=bogus", { headers: lee }))).status).toBe(400);
    expect(await (await count(req("/api/app-order-requests/pending/count", { headers: lee }))).json()).toEqual({ count: 1 });
    const open = await (await openMrs(req("/api/app-order-requests/open-merge-requests", { headers: lee }))).json();
    expect(open.items).toEqual([expect.objectContaining({ order: expect.objectContaining({ id: orderId }), mergeRequest: expect.objectContaining({ state: "opened" }) })]);
  });

  it("an engineer approving → 403 naming lead; the requester (even a lead) approving their own → 403 that says so", async () => {
    const res = await approve(req(`/api/app-order-requests/${orderId}/approve`, { method: "POST", headers: eddie }), byId(orderId));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "forbidden", detail: expect.stringContaining("lead"), requiredRole: "lead" });
    // Roles are read on every request (as from portal.yaml): eddie holds lead until he is signed in again without it.
    const leadEddie = await portal.signIn({ id: "eddie", name: "eddie (name)", roles: ["engineer", "lead"] });
    const own = await approve(req(`/api/app-order-requests/${orderId}/approve`, { method: "POST", headers: leadEddie }), byId(orderId));
    await portal.signIn({ id: "eddie", name: "eddie (name)", roles: ["engineer"] });
    expect(own.status).toBe(403);
    expect(await own.json()).toEqual({ message: "own-order", detail: expect.stringMatching(/cannot approve your own order/) });
    expect((await reject(req(`/api/app-order-requests/${orderId}/reject`, { method: "POST", headers: eddie, json: { reason: "x" } }), byId(orderId))).status).toBe(403);
  });

  it("a lead approves (the component is in the catalog); a second approval → 409", async () => {
    const res = await approve(req(`/api/app-order-requests/${orderId}/approve`, { method: "POST", headers: lee }), byId(orderId));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ inCatalog: true, order: { status: "approved", decidedBy: "lee" } });
    expect(portal.catalog.get("cart-api")).toBeDefined();
    expect((await approve(req(`/api/app-order-requests/${orderId}/approve`, { method: "POST", headers: lena }), byId(orderId))).status).toBe(409);
    expect((await approve(req(`/api/app-order-requests/nope/approve`, { method: "POST", headers: lena }), byId("nope"))).status).toBe(404);
  });

  it("reject: the reason is required (400); then 200, and approving afterwards → 409", async () => {
    const order = await (await orders.POST(req("/api/app-order-requests", { method: "POST", headers: eddie, json: orderBody("nope-api") }))).json();
    const missing = await reject(req(`/api/app-order-requests/${order.id}/reject`, { method: "POST", headers: lee, json: {} }), byId(order.id));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ message: "invalid-request", detail: expect.stringMatching(/reason is required/), issues: [{ path: ["reason"] }] });
    expect((await reject(req(`/api/app-order-requests/${order.id}/reject`, { method: "POST", headers: lee, json: { reason: "  " } }), byId(order.id))).status).toBe(400);
    const ok = await reject(req(`/api/app-order-requests/${order.id}/reject`, { method: "POST", headers: lee, json: { reason: "We have one already." } }), byId(order.id));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: "rejected", reason: "We have one already." });
    const late = await approve(req(`/api/app-order-requests/${order.id}/approve`, { method: "POST", headers: lena }), byId(order.id));
    expect(late.status).toBe(409);
    const mine = await (await orders.GET(req("/api/app-order-requests?requester=me&status=rejected", { headers: eddie }))).json();
    expect(mine.orders[0]).toMatchObject({ name: "nope-api", reason: "We have one already." });
  });

  it("GET /api/resource-requests lists and filters", async () => {
    const all = await (await resources(req("/api/resource-requests", { headers: eddie }))).json();
    expect(all.items.find((i: { component: string }) => i.component === "cart-api")).toMatchObject({ resource: "redis", status: "provisioned-by-merge", environment: "dev" });
    const rejected = await (await resources(req("/api/resource-requests?status=rejected", { headers: eddie }))).json();
    expect(rejected.items.map((i: { component: string }) => i.component)).toEqual(["nope-api"]);
    expect((await resources(req("/api/resource-requests?resource=kafka", { headers: eddie }))).status).toBe(400);
  });
});

describe("audit log", () => {
  it("GET /api/audit is for admins (403 naming admin) and validates its filters", async () => {
    const res = await audit(req("/api/audit", { headers: lee }));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "forbidden", detail: expect.stringContaining("admin"), requiredRole: "admin" });
    expect((await audit(req("/api/audit?targetType=planet", { headers: admin }))).status).toBe(400);
    expect((await audit(req("/api/audit?limit=0", { headers: admin }))).status).toBe(400);
  });

  it("records orders created, approved and rejected, with the request id", async () => {
    const entries = await auditEntries("&action=order");
    expect(entries.map((e) => e.action).sort()).toEqual(["order.approve", "order.create", "order.create", "order.reject"]);
    expect(entries.find((e) => e.action === "order.create" && e.component === "cart-api")).toMatchObject({ actor: "eddie", actorName: "eddie (name)", requestId: "order-req-1" });
    expect(entries.find((e) => e.action === "order.reject")).toMatchObject({ actor: "lee", after: { reason: "We have one already." } });
  });

  it("records a component edit (PUT and PATCH) with only the changed fields before and after", async () => {
    const res = await component.PATCH(
      req("/api/components/checkout-api", { method: "PATCH", headers: { ...eddie, "If-Match": "*", "x-request-id": "edit-1" }, json: { metadata: { displayName: "Checkout API v2" } } }),
      byName("checkout-api"),
    );
    expect(res.status).toBe(200);
    const [e] = await auditEntries("&action=component.update");
    expect(e).toMatchObject({
      actor: "eddie",
      targetType: "component",
      target: "checkout-api",
      component: "checkout-api",
      requestId: "edit-1",
      before: { "metadata.displayName": "Display checkout-api" },
      after: { "metadata.displayName": "Checkout API v2" },
    });
    const current = portal.catalog.get("checkout-api")?.component;
    const put = await component.PUT(
      req("/api/components/checkout-api", { method: "PUT", headers: { ...eddie, "If-Match": "*" }, json: { ...current, metadata: { name: "checkout-api", displayName: "Checkout" } } }),
      byName("checkout-api"),
    );
    expect(put.status).toBe(200);
    expect((await auditEntries("&action=component.update")).length).toBe(2);
    // A refused edit writes nothing.
    await component.PATCH(req("/api/components/checkout-api", { method: "PATCH", headers: { ...eddie, "If-Match": "*" }, json: { spec: { kind: "spaceship" } } }), byName("checkout-api"));
    expect((await auditEntries("&action=component.update")).length).toBe(2);
    // Someone who does not own it proposes: recorded as a proposal, with the merge request.
    const proposed = await component.PATCH(req("/api/components/checkout-api", { method: "PATCH", headers: { ...lena, "If-Match": "*" }, json: { metadata: { displayName: "Checkout (lena)" } } }), byName("checkout-api"));
    expect(proposed.status).toBe(202);
    const [p] = await auditEntries("&action=merge-request.propose");
    expect(p).toMatchObject({ actor: "lena", component: "checkout-api", before: { "metadata.displayName": "Checkout" }, after: { "metadata.displayName": "Checkout (lena)", mergeRequest: expect.any(Number) } });
    expect((await auditEntries("&action=component.update")).length).toBe(2);
  });

  it("records favorites (only when the star changes)", async () => {
    await favorite.POST(req("/api/components/checkout-api/favorite", { method: "POST", headers: eddie }), byName("checkout-api"));
    await favorite.POST(req("/api/components/checkout-api/favorite", { method: "POST", headers: eddie }), byName("checkout-api"));
    await favorite.DELETE(req("/api/components/checkout-api/favorite", { method: "DELETE", headers: eddie }), byName("checkout-api"));
    const entries = await auditEntries("&action=favorite");
    expect(entries.map((e) => e.action)).toEqual(["favorite.remove", "favorite.add"]);
  });

  it("records cache refreshes", async () => {
    expect((await refresh(req("/api/cache/refresh", { method: "POST", headers: olga }))).status).toBe(200);
    expect((await refresh(req("/api/cache/refresh?name=checkout-api", { method: "POST", headers: olga }))).status).toBe(200);
    const entries = await auditEntries("&action=cache.refresh");
    expect(entries.map((e) => [e.targetType, e.target])).toEqual([
      ["component", "checkout-api"],
      ["catalog", "catalog"],
    ]);
  });

  it("records config writes (commit, merge request, bulk, current) with before and after", async () => {
    expect((await config(req("/api/components/checkout-api/config", { method: "POST", headers: olga, json: { environment: "staging", values: { WORKERS: 2 } } }), byName("checkout-api"))).status).toBe(200);
    expect((await config(req("/api/components/checkout-api/config", { method: "POST", headers: olga, json: { environment: "staging", values: { WORKERS: 4 } } }), byName("checkout-api"))).status).toBe(200);
    expect((await config(req("/api/components/checkout-api/config", { method: "POST", headers: lena, json: { environment: "dev", values: { LOG: "debug" } } }), byName("checkout-api"))).status).toBe(202);
    expect((await bulk(req("/api/components/checkout-api/config/bulk", { method: "POST", headers: olga, json: { updates: [{ environment: "dev", values: { A: 1 } }, { environment: "production", values: { B: true } }] } }), byName("checkout-api"))).status).toBe(200);
    const live = await config(req("/api/components/checkout-api/config", { method: "POST", headers: eddie, json: { environment: "dev", view: "current", values: { A: 2 } } }), byName("checkout-api"));
    expect(live.status).toBe(403);
    expect(await live.json()).toEqual({ message: "forbidden", detail: "this needs the operator role", requiredRole: "operator" });
    expect((await config(req("/api/components/checkout-api/config", { method: "POST", headers: olga, json: { environment: "dev", view: "current", values: { A: 2 } } }), byName("checkout-api"))).status).toBe(200);
    const entries = (await auditEntries("&action=config.write")).reverse();
    expect(entries.map((e) => (e.after as { mode: string }).mode)).toEqual(["commit", "commit", "merge_request", "commit", "current"]);
    expect(entries[1]).toMatchObject({ actor: "olga", component: "checkout-api", before: { staging: { WORKERS: 2 } }, after: { environments: { staging: { WORKERS: 4 } } } });
    expect(entries[2]).toMatchObject({ actor: "lena", before: { dev: {} }, after: { mergeRequest: expect.any(Number) } });
    expect(Object.keys((entries[3].after as { environments: object }).environments)).toEqual(["dev", "production"]);
  });

  it("records releases", async () => {
    const res = await release(req("/api/components/checkout-api/releases", { method: "POST", headers: olga, json: { environment: "staging" } }), byName("checkout-api"));
    expect(res.status).toBe(201);
    const [e] = await auditEntries("&action=release.create");
    expect(e).toMatchObject({ actor: "olga", component: "checkout-api", before: { version: null }, after: { environment: "staging", version: expect.any(String) } });
  });

  it("records imports, one entry per component", async () => {
    const res = await importComponents(req("/api/import/components", { method: "POST", headers: olga, json: { repositories: ["growth/quest-engine"] } }));
    expect(res.status).toBe(201);
    const name = (await res.json()).results[0].name;
    const [e] = await auditEntries("&action=import.components");
    expect(e).toMatchObject({ actor: "olga", target: name, component: name, after: { repository: "growth/quest-engine", status: "imported" } });
  });

  it("records tokens created and revoked (never the token)", async () => {
    const created = await tokens.POST(req("/api/tokens", { method: "POST", headers: eddie, json: { name: "ci" } }));
    expect(created.status).toBe(201);
    const body = await created.json();
    expect((await token.DELETE(req(`/api/tokens/${body.id}`, { method: "DELETE", headers: eddie }), byId(body.id))).status).toBe(200);
    const entries = await auditEntries("&targetType=token");
    expect(entries.map((e) => e.action)).toEqual(["token.revoke", "token.create"]);
    expect(JSON.stringify(entries)).not.toContain(body.token);
  });

  it("filters by actor, component and time, newest first, with paging", async () => {
    const byOlga = await auditEntries("&actor=olga");
    expect(byOlga.length).toBeGreaterThan(3);
    expect(byOlga.every((e) => e.actor === "olga")).toBe(true);
    const history = await auditEntries("&component=checkout-api");
    expect(new Set(history.map((e) => e.action))).toEqual(new Set(["component.update", "merge-request.propose", "favorite.add", "favorite.remove", "cache.refresh", "config.write", "release.create"]));
    const ids = history.map((e) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const page1 = await (await audit(req("/api/audit?limit=2", { headers: admin }))).json();
    expect(page1.entries).toHaveLength(2);
    const page2 = await (await audit(req(`/api/audit?limit=2&before=${page1.nextBefore}`, { headers: admin }))).json();
    expect(page2.entries[0].id).toBeLessThan(page1.entries[1].id);
    expect(await auditEntries(`&from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
  });
});
