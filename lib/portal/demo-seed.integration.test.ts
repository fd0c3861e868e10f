import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";
import { seedPortalDemo } from "./demo-seed";
import { getConfig } from "./gitops/environment-config";
import { deployedVersions } from "./gitops/releases";
import { listOrders, pendingCount } from "./app-orders/orders";

const shipped = (name: string) => readFile(path.join(process.cwd(), "config/components", name), "utf8");

describe("the lived-in demo", () => {
  let portal: PortalTest;
  beforeAll(async () => {
    portal = await startPortalTest({
      components: { "checkout-api.yaml": await shipped("checkout-api.yaml"), "rewards-dashboard.yaml": await shipped("rewards-dashboard.yaml") },
      // The demo repositories the releases are cut from.
      settings: (s) => ({ ...s, gitops: { ...s.gitops, demo: true } }),
    });
  }, 60_000);
  afterAll(() => portal?.close());

  it("shows config with one drift, deployed versions, an open request to review and a pending order", async () => {
    const seeded = await seedPortalDemo(portal.gitops);
    expect(seeded.config.sort()).toEqual(["checkout-api", "rewards-dashboard"]);
    expect(seeded.mergeRequest).toBe(1);

    const persistent = await getConfig(portal.gitops, "checkout-api", "persistent");
    expect(persistent.environments.find((e) => e.environment === "production")?.values).toMatchObject({ PAYMENT_PROVIDER: "stripe", LOG_LEVEL: "info" });
    const current = await getConfig(portal.gitops, "checkout-api", "current");
    const drifting = current.environments.filter((e) => e.drift.length > 0);
    expect(drifting.map((e) => [e.environment, e.drift])).toEqual([["production", ["LOG_LEVEL"]]]);

    expect(await deployedVersions(portal.db, "checkout-api")).toMatchObject({ staging: "0.2.0", production: "0.1.0" });
    expect(await deployedVersions(portal.db, "rewards-dashboard")).toMatchObject({ staging: "0.1.0", production: "0.1.0" });
    const dashboard = await getConfig(portal.gitops, "rewards-dashboard", "current");
    expect(dashboard.environments.filter((e) => e.drift.length > 0)).toEqual([]);

    const open = await portal.gitops.config.openMergeRequests("checkout-api");
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ author: "dana", state: "opened" });
    expect(await portal.gitops.config.readText("config/checkout-api/staging.yaml")).toContain("MAX_BASKET_ITEMS: 50");

    expect(await pendingCount(portal.gitops)).toBe(1);
    expect((await listOrders(portal.gitops))[0]).toMatchObject({ name: "season-pass", requester: "dana", status: "pending" });
  }, 60_000);

  it("adds nothing on the next start, and does not reopen what people decided", async () => {
    const { provider, repo } = portal.gitops.config.target;
    await provider.closeMergeRequest(repo, 1);
    const again = await seedPortalDemo(portal.gitops);
    expect(again).toEqual({ config: [], releases: [], drift: null, mergeRequest: null, order: null });
    expect(await portal.gitops.config.openMergeRequests("checkout-api")).toHaveLength(0);
    expect(await listOrders(portal.gitops)).toHaveLength(1);
  }, 60_000);
});
