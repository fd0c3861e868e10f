// What the portal does when its server starts (instrumentation.ts): the loud warning about the
// development sign-in in production, opening the database (migrations, PORTAL_DEV_TOKEN seed), and
// recovering what a previous process may have left half-done: the config repository (stale git
// locks, working tree reset to the committed content, catalog read from the commit) and app orders
// left in approving; then, on the embedded default, the lived-in demo (lib/portal/demo-seed.ts).
import "server-only";
import { warnAboutDevLogin } from "./auth/settings";
import type { PortalServices } from "./services";
import { seedPortalDemo } from "./demo-seed";
import { scheduleScorecards } from "./scorecards";

export async function portalStartup(services: PortalServices): Promise<void> {
  warnAboutDevLogin();
  try {
    await services.database();
  } catch (error) {
    // Not fatal: /health answers 503 and the next request retries the open.
    console.error(`[portal] the portal database could not be opened at start: ${(error as Error).message}`);
  }
  try {
    // Opening the catalog recovers the config repository before any request reads or writes it.
    await services.catalog();
  } catch (error) {
    console.error(`[portal] the config repository could not be opened at start: ${(error as Error).message}`);
  }
  // The facts of the time-based scorecard rules (releases, open reviews), and the day's snapshot (the trend),
  // taken once per day whatever the number of instances.
  scheduleScorecards(() => services.gitops());
  // Finishing interrupted approvals needs the SCM wiring (demo repositories at a first start): it runs
  // in the background; order routes wait for the same promise before they read or decide an order.
  const ready = services.appOrders();
  ready.catch((error: unknown) => {
    console.error(`[portal] app orders could not be prepared at start: ${(error as Error).message}`);
  });
  if (services.settings.demo) {
    void ready
      .then(async () => seedPortalDemo(await services.gitops()))
      .then((seeded) => {
        const parts = [...seeded.config.map((c) => `config of ${c}`), ...seeded.releases, seeded.drift && `drift ${seeded.drift}`, seeded.mergeRequest && `merge request !${seeded.mergeRequest}`, seeded.order && "an app order"].filter(Boolean);
        if (parts.length) console.log(`[portal] demo data: ${parts.join(", ")}`);
      })
      .catch((error: unknown) => console.error(`[portal] demo data could not be seeded: ${(error as Error).message}`));
  }
}
