// A write through the portal's route, then a restart: the catalog opened as a new portal process opens
// it (services built from the same settings, same data directory) with its snapshot kept serves the
// write, whether the snapshot was saved after it or the process died first.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";
import { createPortalServices, type PortalServices } from "@/lib/portal/services";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";

const one = await import("@/app/api/components/[name]/route");

const ctx = (name: string) => ({ params: Promise.resolve({ name }) });
const req = (url: string, init: RequestInit = {}) => new Request(`http://portal.test${url}`, init);

let portal: PortalTest;
let operator: Record<string, string>;
const restarted: PortalServices[] = [];

beforeAll(async () => {
  portal = await startPortalTest({
    components: { "a.yaml": yamlOf(validComponent("alpha")), "b.yaml": yamlOf(validComponent("beta")), "bad.yaml": "kind: [\n" },
    // A long delay: the snapshot is written only when a test flushes it (or never: a crash).
    settings: (s) => ({ ...s, catalog: { ...s.catalog, snapshot: true, snapshotDelayMs: 60_000 } }),
  });
  operator = await portal.signIn({ id: "olga", name: "Olga", roles: ["engineer", "operator"] }, "token");
});
afterAll(async () => {
  for (const s of restarted) await s.close();
  await portal?.close();
});

/** The catalog as a new portal process on the same data directory opens it (services built from the same settings). */
async function restartedCatalog() {
  const services = createPortalServices(portal.services.settings);
  restarted.push(services);
  return services.catalog();
}

async function patchAlpha(displayName: string): Promise<void> {
  const r = await one.PATCH(req("/api/components/alpha", { method: "PATCH", headers: { ...operator, "If-Match": "*", "Content-Type": "application/json" }, body: JSON.stringify({ metadata: { displayName } }) }), ctx("alpha"));
  expect(r.status).toBe(200);
}

describe("catalog restart after a portal write", () => {
  it("serves the write from the snapshot saved after it, and again when the process died before saving", async () => {
    await patchAlpha("Alpha, saved");
    await portal.catalog.flushSnapshot();
    let catalog = await restartedCatalog();
    expect(catalog.lastLoad).toEqual({ source: "snapshot", filesRead: 0 });
    expect(catalog.get("alpha")?.component.metadata.displayName).toBe("Alpha, saved");

    await patchAlpha("Alpha, never saved");
    catalog = await restartedCatalog();
    expect(catalog.lastLoad).toEqual({ source: "snapshot+diff", filesRead: 1 });
    expect(catalog.get("alpha")?.component.metadata.displayName).toBe("Alpha, never saved");
    // The load errors come back too, as the root index lists them.
    expect(catalog.errors).toEqual(portal.catalog.errors);
    expect(catalog.errors).toEqual([{ file: "components/bad.yaml", path: "", message: expect.stringMatching(/YAML/) }]);
  });
});
