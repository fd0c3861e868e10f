// An operator changes the scorecard rules by review: POST /api/scorecards/rules checks the text as the
// catalog will load it and opens a merge request that operators decide; once merged, the levels move.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";

const { GET: overview } = await import("@/app/api/scorecards/route");
const rulesRoute = await import("@/app/api/scorecards/rules/route");
const { GET: review } = await import("@/app/api/merge-requests/[id]/route");
const { POST: merge } = await import("@/app/api/merge-requests/[id]/merge/route");

const req = (url: string, headers: Record<string, string>, body?: unknown) =>
  new Request(`http://portal.test${url}`, body === undefined ? { headers } : { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) });
const ctx = (id: number) => ({ params: Promise.resolve({ id: String(id) }) });
const rules = (count: number) => `levels: [bronze]\nrules:\n  - { id: owners, title: Owners, level: bronze, check: { type: minOwners, count: ${count} } }\n`;

let portal: PortalTest;
const as: Record<string, Record<string, string>> = {};
beforeAll(async () => {
  portal = await startPortalTest({ components: { "alpha.yaml": yamlOf(validComponent("alpha")) } });
  as.alice = await portal.signIn({ id: "alice", roles: ["engineer"] }, "token");
  as.olga = await portal.signIn({ id: "olga", roles: ["engineer", "operator"] }, "token");
});
afterAll(async () => {
  await portal?.close();
});

describe("scorecard rules by review", () => {
  it("engineers read the rules but may not propose; a file that would not load is refused with its problems", async () => {
    expect(await (await rulesRoute.GET(req("/api/scorecards/rules", as.alice))).json()).toEqual({ file: "scorecards/rules.yaml", text: null });
    const refused = await rulesRoute.POST(req("/api/scorecards/rules", as.alice, { yaml: rules(1) }));
    expect(refused.status).toBe(403);
    const invalid = await rulesRoute.POST(req("/api/scorecards/rules", as.olga, { yaml: rules(1).replace("level: bronze, check", "level: gold, check") }));
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toMatchObject({ message: "invalid-config", issues: [{ path: ["rules", "0", "level"], message: '"gold" is not one of the levels (bronze)' }] });
    const tooLong = await rulesRoute.POST(req("/api/scorecards/rules", as.olga, { yaml: "#".repeat(20_001) }));
    expect(tooLong.status).toBe(400);
  });

  it("an operator proposes, an operator merges, and the levels move", async () => {
    // alpha has two owners: bronze under "at least two", none under "at least three".
    const proposed = await rulesRoute.POST(req("/api/scorecards/rules", as.olga, { yaml: rules(3) }));
    expect(proposed.status).toBe(202);
    const { mergeRequest, reviewUrl } = await proposed.json();
    expect(reviewUrl).toBe(`/reviews/${mergeRequest.iid}`);
    // The same proposal again is the same merge request.
    expect((await (await rulesRoute.POST(req("/api/scorecards/rules", as.olga, { yaml: rules(3) }))).json()).mergeRequest.iid).toBe(mergeRequest.iid);
    // Operators decide it, not the engineers who own components.
    expect((await (await review(req(`/api/merge-requests/${mergeRequest.iid}`, as.alice), ctx(mergeRequest.iid))).json()).can.merge).toBe(false);
    expect((await (await overview(req("/api/scorecards", as.olga))).json()).rules.levels).toEqual(["bronze", "silver", "gold"]);

    const merged = await merge(req(`/api/merge-requests/${mergeRequest.iid}/merge`, as.olga, {}), ctx(mergeRequest.iid));
    expect(merged.status).toBe(200);
    const after = await (await overview(req("/api/scorecards", as.olga))).json();
    expect(after.rules.levels).toEqual(["bronze"]);
    expect(after.rollup.levels).toEqual({ none: 1, bronze: 0 });

    const back = await rulesRoute.POST(req("/api/scorecards/rules", as.olga, { yaml: rules(2) }));
    const iid = (await back.json()).mergeRequest.iid;
    await merge(req(`/api/merge-requests/${iid}/merge`, as.olga, {}), ctx(iid));
    expect((await (await overview(req("/api/scorecards", as.olga))).json()).rollup.levels).toEqual({ none: 0, bronze: 1 });
    // Unchanged text: nothing proposed.
    expect(await (await rulesRoute.POST(req("/api/scorecards/rules", as.olga, { yaml: rules(2) }))).json()).toMatchObject({ changed: false, mergeRequest: null });
  });
});
