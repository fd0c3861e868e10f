// GET /api/owners/{owner} on a real portal (test-support/portal/test-portal.ts): what a user owns directly and, on
// their own page, through their groups; a group's components; the open merge requests on them; the app orders a
// lead decides; not found for a name no record holds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";
import { writeConfig } from "@/lib/portal/gitops/environment-config";
import { createOrder } from "@/lib/portal/app-orders/orders";
import { OwnerAnswer } from "@/lib/portal/contracts/owners";

const { GET } = await import("./route");

let portal: PortalTest;
const as: Record<string, Record<string, string>> = {};
const get = (owner: string, who?: Record<string, string>) => GET(new Request(`http://portal.test/api/owners/${encodeURIComponent(owner)}`, { headers: who }), { params: Promise.resolve({ owner }) });
async function page(owner: string, who: Record<string, string>) {
  const answer = await get(owner, who);
  expect(answer.status, owner).toBe(200);
  return OwnerAnswer.parse(await answer.json());
}
const names = (a: OwnerAnswer) => a.components.items.map((c) => c.name);

beforeAll(async () => {
  portal = await startPortalTest({
    components: {
      // validComponent's owners: alice (group commerce/backend) and bob.
      "alpha.yaml": yamlOf(validComponent("alpha")),
      "beta.yaml": yamlOf(validComponent("beta", { owners: [{ user: "carol", group: "platform/sre" }] })),
      "gamma.yaml": yamlOf(validComponent("gamma", { owners: [{ user: "dave" }] })),
    },
  });
  as.alice = await portal.signIn({ id: "alice", roles: ["engineer"], groups: ["platform/sre"] });
  as.carol = await portal.signIn({ id: "carol", roles: ["engineer"] });
  as.lee = await portal.signIn({ id: "lee", roles: ["engineer", "lead"] });
  // carol proposes a change to alpha (not hers: a merge request its owners decide) and orders a new app.
  const proposed = await writeConfig(portal.gitops, "alpha", [{ environment: "staging", values: { LOG_LEVEL: "debug" } }], { view: "persistent", user: { id: "carol", name: "Carol" }, direct: false });
  if (proposed.mode !== "merge_request") throw new Error("expected a merge request");
  await createOrder(portal.gitops, { name: "delta", displayName: "Delta", kind: "service", owners: [{ user: "carol" }], environments: ["staging"], repoPath: "commerce/delta" }, { id: "carol", name: "Carol", requestId: "test" });
}, 60_000);
afterAll(() => portal?.close());

describe("owner pages through the API", () => {
  it("a user's own page lists what names them and what their groups own, with the open reviews to decide", async () => {
    const alice = await page("alice", as.alice);
    expect(alice).toMatchObject({ owner: "alice", asUser: true, asGroup: false, groups: ["platform/sre"] });
    expect(alice.components.items).toMatchObject([
      { name: "alpha", direct: true, viaGroups: [] },
      { name: "beta", direct: false, viaGroups: ["platform/sre"] },
    ]);
    expect(alice.reviews).toHaveLength(1);
    expect(alice.reviews[0]).toMatchObject({ author: "carol", scope: { kind: "component", component: "alpha" }, can: { merge: true, approve: true } });
    expect(alice.orders).toMatchObject({ mayDecide: false, toDecide: [], requested: [] });
  });

  it("another user's page lists only what names them; a group's page what names the group", async () => {
    const carol = await page("carol", as.alice);
    expect(carol).toMatchObject({ asUser: true, groups: null });
    expect(names(carol)).toEqual(["beta"]);
    expect(carol.reviews).toEqual([]);
    expect(carol.orders.requested.map((o) => o.name)).toEqual(["delta"]);

    const group = await page("commerce/backend", as.carol);
    expect(group).toMatchObject({ asUser: false, asGroup: true, groups: null });
    expect(names(group)).toEqual(["alpha"]);
    // carol sees the review on alpha, which she may close (her own) but not merge.
    expect(group.reviews.map((r) => [r.scope.kind === "component" && r.scope.component, r.can.merge, r.can.close])).toEqual([["alpha", false, true]]);
  });

  it("a lead's own page holds the app orders waiting for a lead, not their own", async () => {
    const lee = await page("lee", as.lee);
    expect(lee).toMatchObject({ asUser: true, components: { items: [], total: 0 }, reviews: [] });
    expect(lee.orders.mayDecide).toBe(true);
    expect(lee.orders.toDecide.map((o) => [o.name, o.requester, o.status])).toEqual([["delta", "carol", "pending"]]);
  });

  it("answers 404 for an owner no record names, 400 for a name that cannot be one, 401 signed out", async () => {
    const unknown = await get("nobody", as.alice);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ message: "not-found", detail: expect.stringContaining('"nobody"') });
    // lee is known on his own page only: on another's, a name no record holds is not found.
    expect((await get("lee", as.alice)).status).toBe(404);
    const tooLong = await get("x".repeat(256), as.alice);
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).detail).toContain("at most 255 characters");
    expect((await get("alice")).status).toBe(401);
  });
});
