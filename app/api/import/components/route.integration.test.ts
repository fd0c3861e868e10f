// POST /api/import/components with format "backstage" on a real portal (test-support/portal/test-portal.ts): the
// preview answers the records and what did not map; an operator's import is proposed (202), never committed, and
// audited; bad bodies are a 400 that changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";
import type { LocalScmProvider } from "@/lib/scm/local";
import { DEMO_REPOSITORIES, ensureDemoRepositories } from "@/lib/scm/demo";
import { ImportAnswer } from "@/lib/portal/contracts/gitops";
import { listAudit } from "@/lib/portal/audit-store";

const { POST } = await import("./route");

let portal: PortalTest;
let olga: Record<string, string>;
const post = (body: unknown, who = olga) =>
  POST(new Request("http://portal.test/api/import/components", { method: "POST", headers: { ...who, "content-type": "application/json" }, body: JSON.stringify(body) }), { params: Promise.resolve({}) });

beforeAll(async () => {
  portal = await startPortalTest({ components: { "checkout-api.yaml": yamlOf(validComponent("checkout-api", { repo: { path: "commerce/checkout-api" } })) } });
  await ensureDemoRepositories(portal.gitops.scm as LocalScmProvider, DEMO_REPOSITORIES.filter((r) => r.path === "growth/loyalty"));
  olga = await portal.signIn({ id: "olga", roles: ["engineer", "operator"] });
}, 120_000);
afterAll(() => portal?.close());

describe("import from Backstage through the API", () => {
  it("the preview answers the records and the report; nothing is written", async () => {
    const head = await portal.gitops.config.head();
    const answer = await post({ repositories: ["growth/loyalty"], format: "backstage", dryRun: true });
    expect(answer.status).toBe(200);
    const body = ImportAnswer.parse(await answer.json());
    expect(body.results.map((r) => [r.entity, r.status])).toEqual([
      ["component:default/loyalty-points", "ready"],
      ["component:default/loyalty-web", "ready"],
    ]);
    expect(body.unmapped?.some((n) => n.entity === "api:default/loyalty-events" && n.field === "spec.definition")).toBe(true);
    expect(await portal.gitops.config.head()).toBe(head);
  });

  it("an operator's import opens a merge request (202), one audit entry per record", async () => {
    const before = (await listAudit(portal.db, { limit: 1 })).entries[0]?.id ?? 0;
    const answer = await post({ repositories: ["growth/loyalty"], format: "backstage" });
    expect(answer.status).toBe(202);
    const body = ImportAnswer.parse(await answer.json());
    expect(body.commit).toBeNull();
    expect(body.mergeRequest?.iid).toBeGreaterThan(0);
    const written = (await listAudit(portal.db, { limit: 50 })).entries.filter((e) => e.id > before);
    expect(written.map((e) => e.summary).sort()).toEqual([
      "proposed the import of growth/loyalty (Backstage component:default/loyalty-points) as loyalty-points",
      "proposed the import of growth/loyalty (Backstage component:default/loyalty-web) as loyalty-web",
    ]);
    expect(portal.catalog.get("loyalty-points")).toBeUndefined();
  });

  it("refuses an unknown format and a kind chosen for a Backstage import, in words", async () => {
    for (const body of [
      { repositories: ["growth/loyalty"], format: "cortex" },
      { repositories: [{ path: "growth/loyalty", kind: "docs" }], format: "backstage" },
    ]) {
      const answer = await post(body);
      expect(answer.status).toBe(400);
      expect(JSON.stringify(await answer.json())).toMatch(/format must be one of inferred, backstage|takes each kind from spec\.type/);
    }
  });
});
