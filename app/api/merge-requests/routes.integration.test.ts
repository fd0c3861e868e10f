// The review routes on a real portal (test-support/portal/test-portal.ts): proposals are real branches in the config
// repository (local source control), decisions go through the real authorizer, merges are real git.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";
import { auditLog } from "@/lib/portal/db/schema";
import { getConfig, writeConfig } from "@/lib/portal/gitops/environment-config";
import { createOrder } from "@/lib/portal/app-orders/orders";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";

const { GET: list } = await import("@/app/api/merge-requests/route");
const { GET: one } = await import("@/app/api/merge-requests/[id]/route");
const { POST: approve } = await import("@/app/api/merge-requests/[id]/approve/route");
const { POST: merge } = await import("@/app/api/merge-requests/[id]/merge/route");
const { POST: close } = await import("@/app/api/merge-requests/[id]/close/route");

const req = (url: string, headers: Record<string, string>, init: RequestInit = {}) =>
  new Request(`http://portal.test${url}`, { ...init, headers: { ...headers, ...(init.body ? { "content-type": "application/json" } : {}) } });
const ctx = (id: number | string) => ({ params: Promise.resolve({ id: String(id) }) });
const post = (handler: typeof approve, id: number | string, who: Record<string, string>, body?: unknown) =>
  handler(req(`/api/merge-requests/${id}/x`, who, { method: "POST", body: body === undefined ? undefined : JSON.stringify(body) }), ctx(id));

let portal: PortalTest;
const as: Record<string, Record<string, string>> = {};
const carol = { id: "carol", name: "Carol" };

async function propose(values: Record<string, string | number | boolean>): Promise<number> {
  const r = await writeConfig(portal.gitops, "alpha", [{ environment: "staging", values }], { view: "persistent", user: carol, direct: false });
  if (r.mode !== "merge_request") throw new Error("expected a merge request");
  return r.mergeRequest.iid;
}

beforeAll(async () => {
  portal = await startPortalTest({ components: { "alpha.yaml": yamlOf(validComponent("alpha"), "alpha") } });
  // validComponent's owners: alice (group commerce/backend) and bob.
  for (const id of ["alice", "carol", "dave"]) as[id] = await portal.signIn({ id, roles: ["engineer"] }, "token");
  as.olga = await portal.signIn({ id: "olga", roles: ["engineer", "operator"] }, "token");
  await writeConfig(portal.gitops, "alpha", [{ environment: "staging", values: { LOG_LEVEL: "info" } }], { view: "persistent", user: { id: "olga", name: "Olga" }, direct: true });
}, 60_000);
afterAll(() => portal?.close());

describe("merge request reviews", () => {
  it("lists a proposal to those who may decide it, with its diff and what each may do", async () => {
    const id = await propose({ LOG_LEVEL: "debug" });
    const [listed] = (await (await list(req("/api/merge-requests", as.alice))).json()).mergeRequests;
    expect(listed).toMatchObject({ iid: id, hasConflicts: false, can: { approve: true, merge: true, close: true } });
    const mine = async (who: string) => (await (await list(req("/api/merge-requests?mine-to-review=true", as[who]))).json()).count;
    expect(await mine("alice")).toBe(1);
    expect(await mine("olga")).toBe(1);
    expect(await mine("dave")).toBe(0);
    expect(await mine("carol")).toBe(0);
    const byAuthor = await (await list(req("/api/merge-requests?author=carol&component=alpha", as.dave))).json();
    expect(byAuthor.mergeRequests.map((m: { iid: number }) => m.iid)).toEqual([id]);

    const detail = await (await one(req(`/api/merge-requests/${id}`, as.alice), ctx(id))).json();
    expect(detail).toMatchObject({ iid: id, author: "carol", state: "opened", scope: { kind: "component", component: "alpha" }, hasConflicts: false, can: { approve: true, merge: true, close: true } });
    expect(detail.files).toEqual([expect.objectContaining({ newPath: "config/alpha/staging.yaml", newFile: false })]);
    expect(detail.files[0].diff).toContain("-LOG_LEVEL: info\n+LOG_LEVEL: debug");
    const asAuthor = await (await one(req(`/api/merge-requests/${id}`, as.carol), ctx(id))).json();
    expect(asAuthor.can).toEqual({ approve: false, merge: false, close: true });
  });

  it("refuses decisions to those who may not take them, naming who may", async () => {
    const [{ iid: id }] = (await (await list(req("/api/merge-requests", as.alice))).json()).mergeRequests;
    const own = await post(approve, id, as.carol);
    expect(own.status).toBe(403);
    expect((await own.json()).message).toBe("own-merge-request");
    const stranger = await post(merge, id, as.dave);
    expect(stranger.status).toBe(403);
    expect(await stranger.json()).toMatchObject({ message: "forbidden", requiredRole: "owner or operator", detail: expect.stringContaining("owners of alpha") });
    expect((await post(close, id, as.dave, { reason: "no" })).status).toBe(403);
    expect((await one(req("/api/merge-requests/999", as.alice), ctx(999))).status).toBe(404);
    expect((await one(req("/api/merge-requests/abc", as.alice), ctx("abc"))).status).toBe(400);
  });

  it("an owner approves and merges; the config shows the change at once; the decision is audited", async () => {
    const [{ iid: id }] = (await (await list(req("/api/merge-requests", as.alice))).json()).mergeRequests;
    const approved = await post(approve, id, as.alice);
    expect(approved.status).toBe(200);
    expect((await approved.json()).approvals).toEqual([expect.objectContaining({ by: "alice" })]);
    const merged = await post(merge, id, as.alice);
    expect(merged.status).toBe(200);
    expect(await merged.json()).toMatchObject({ state: "merged", mergedBy: "alice", can: { merge: false, close: false } });
    const staging = (await getConfig(portal.gitops, "alpha", "persistent")).environments.find((e) => e.environment === "staging");
    expect(staging?.values).toEqual({ LOG_LEVEL: "debug" });
    const again = await post(merge, id, as.olga);
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe("merge-request-decided");
    const audit = await portal.db.select().from(auditLog).where(eq(auditLog.targetType, "merge-request"));
    expect(audit.map((a) => [a.action, a.actor])).toEqual(expect.arrayContaining([["merge-request.approve", "alice"], ["merge-request.merge", "alice"]]));
  });

  it("a close needs a reason, and the author reads it", async () => {
    const id = await propose({ LOG_LEVEL: "trace" });
    const noReason = await post(close, id, as.alice, { reason: "  " });
    expect(noReason.status).toBe(400);
    expect((await noReason.json()).issues[0]).toMatchObject({ path: ["reason"] });
    const closed = await post(close, id, as.alice, { reason: "trace floods the log pipeline; use debug" });
    expect(closed.status).toBe(200);
    const seen = await (await one(req(`/api/merge-requests/${id}`, as.carol), ctx(id))).json();
    expect(seen).toMatchObject({ state: "closed", closedBy: "alice", closeReason: "trace floods the log pipeline; use debug", can: { approve: false, merge: false, close: false } });
    const mineAll = await (await list(req("/api/merge-requests?author=carol&state=all", as.carol))).json();
    expect(mineAll.mergeRequests.map((m: { state: string }) => m.state).sort()).toEqual(["closed", "merged"]);
  });

  it("the author may close their own request", async () => {
    const id = await propose({ LOG_LEVEL: "warn" });
    expect((await post(close, id, as.carol, { reason: "changed my mind" })).status).toBe(200);
  });

  it("a request whose target moved on is shown as conflicting and its merge is refused", async () => {
    const id = await propose({ LOG_LEVEL: "error" });
    await writeConfig(portal.gitops, "alpha", [{ environment: "staging", values: { LOG_LEVEL: "notice" } }], { view: "persistent", user: { id: "olga", name: "Olga" }, direct: true });
    // The page disables Merge from can.merge: it says what the server would refuse.
    expect(await (await one(req(`/api/merge-requests/${id}`, as.olga), ctx(id))).json()).toMatchObject({ hasConflicts: true, can: { merge: false, close: true } });
    // So does the list, which reads no diff: the request still waits for its deciders, who may only close it.
    for (const query of ["", "?mine-to-review=true", "?component=alpha"]) {
      const listed = (await (await list(req(`/api/merge-requests${query}`, as.alice))).json()).mergeRequests.find((m: { iid: number }) => m.iid === id);
      expect(listed).toMatchObject({ iid: id, hasConflicts: true, can: { approve: true, merge: false, close: true } });
    }
    const refused = await post(merge, id, as.olga);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ message: "merge-conflict", detail: expect.stringContaining("conflict") });
    const staging = (await getConfig(portal.gitops, "alpha", "persistent")).environments.find((e) => e.environment === "staging");
    expect(staging?.values).toEqual({ LOG_LEVEL: "notice" });
  });

  it("an app order's request is left to the leads", async () => {
    await createOrder(
      portal.gitops,
      { name: "gamma", displayName: "Gamma", kind: "service", owners: [{ user: "carol" }], environments: ["staging"], repoPath: "commerce/gamma" },
      { id: "carol", name: "Carol", requestId: "test" },
    );
    const all = (await (await list(req("/api/merge-requests", as.olga))).json()).mergeRequests;
    const order = all.find((m: { scope: { kind: string } }) => m.scope.kind === "order");
    expect(order).toMatchObject({ scope: { kind: "order", component: "gamma" }, can: { merge: false, close: false } });
    const refused = await post(merge, order.iid, as.olga);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe("order-merge-request");
  });
});
