// Relations through the API on a real portal (lib/portal/testing.ts): the component answer carries them, an
// edit moves them at once, and the graph route answers the neighbourhood within its bounds, with the root's blast radius.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";
import { ComponentAnswer, ComponentGraphAnswer } from "@/lib/portal/contracts/components";

const one = await import("@/app/api/components/[name]/route");
const { GET: graph } = await import("./route");

const ctx = (name: string) => ({ params: Promise.resolve({ name }) });
const req = (url: string, init: RequestInit = {}) => new Request(`http://portal.test${url}`, init);

let portal: PortalTest;
let alice: Record<string, string>;
beforeAll(async () => {
  const checkout = validComponent("checkout-api", { system: "commerce", dependsOn: ["payments-gateway", "ghost"], consumesApis: ["payments"] });
  const payments = validComponent("payments-gateway", { system: "commerce", providesApis: [{ name: "payments", type: "grpc", path: "proto/payments.proto" }] });
  const store = validComponent("store-web", { dependsOn: ["checkout-api"] });
  portal = await startPortalTest({ components: { "checkout-api.yaml": yamlOf(checkout), "payments-gateway.yaml": yamlOf(payments), "store-web.yaml": yamlOf(store) } });
  alice = await portal.signIn({ id: "alice", roles: ["engineer"] }, "token");
});
afterAll(async () => portal?.close());

async function relationsOf(name: string) {
  const answer = await one.GET(req(`/api/components/${name}`, { headers: alice }), ctx(name));
  expect(answer.status).toBe(200);
  return { etag: answer.headers.get("etag")!, ...ComponentAnswer.parse(await answer.json()).relations };
}

describe("relations through the API", () => {
  it("the component answer carries its relations, blast radius and warnings; an edit moves them at once", async () => {
    const payments = await relationsOf("payments-gateway");
    expect(payments).toMatchObject({
      system: { name: "commerce", members: { names: ["checkout-api", "payments-gateway"], total: 2 } },
      providesApis: [{ name: "payments", type: "grpc", path: "proto/payments.proto", consumers: { names: ["checkout-api"], total: 1 }, otherProviders: [] }],
      usedBy: { names: ["checkout-api"], total: 1 },
      blastRadius: 2,
      warnings: [],
    });
    const checkout = await relationsOf("checkout-api");
    expect(checkout.warnings).toEqual([{ name: "checkout-api", file: "components/checkout-api.yaml", path: "spec.dependsOn[1]", message: expect.stringContaining('"ghost"') }]);

    // store-web's owner (alice) drops its dependency: payments-gateway's blast radius follows.
    const store = await relationsOf("store-web");
    const patched = await one.PATCH(req("/api/components/store-web", { method: "PATCH", headers: { ...alice, "If-Match": store.etag }, body: JSON.stringify({ spec: { dependsOn: null } }) }), ctx("store-web"));
    expect(patched.status).toBe(200);
    expect((await relationsOf("payments-gateway")).blastRadius).toBe(1);
    expect((await relationsOf("checkout-api")).usedBy).toEqual({ names: [], total: 0 });
  });

  it("GET /api/components/:name/graph answers nodes and edges within depth 1..3 in a direction", async () => {
    const get = (name: string, query = "") => graph(req(`/api/components/${name}/graph${query}`, { headers: alice }), ctx(name));
    const down = ComponentGraphAnswer.parse(await (await get("checkout-api", "?depth=2&direction=down")).json());
    expect(down.nodes.map((n) => [n.name, n.distance, n.missing])).toEqual([
      ["checkout-api", 0, false],
      ["payments-gateway", 1, false],
      ["ghost", 1, true],
    ]);
    expect(down.edges).toEqual([
      { from: "checkout-api", to: "payments-gateway", kind: "dependsOn", api: null },
      { from: "checkout-api", to: "ghost", kind: "dependsOn", api: null },
      { from: "checkout-api", to: "payments-gateway", kind: "consumesApi", api: "payments" },
    ]);
    const up = ComponentGraphAnswer.parse(await (await get("payments-gateway", "?depth=3&direction=up")).json());
    expect(up).toMatchObject({ root: "payments-gateway", depth: 3, direction: "up", truncated: false, blastRadius: 1 });
    expect(up.nodes.map((n) => n.name)).toEqual(["payments-gateway", "checkout-api"]);
    expect(ComponentGraphAnswer.parse(await (await get("payments-gateway")).json())).toMatchObject({ depth: 1, direction: "both" });

    for (const bad of ["?depth=0", "?depth=4", "?depth=two", "?direction=sideways"]) expect((await get("checkout-api", bad)).status, bad).toBe(400);
    const tooDeep = await (await get("checkout-api", "?depth=4")).json();
    expect(tooDeep).toMatchObject({ message: "invalid-request", issues: [{ path: ["depth"], message: "depth is at most 3 hops: a deeper graph is too large to draw or read" }] });
    expect((await (await get("checkout-api", "?direction=sideways")).json()).issues[0].message).toBe("direction is one of both, down, up");
    expect((await get("nowhere")).status).toBe(404);
    expect((await graph(req("/api/components/checkout-api/graph"), ctx("checkout-api"))).status).toBe(401);
  });
});
