// Playwright's globalSetup: once before the workers start, the production builds (when stale) and the
// migrated templates of both services' embedded databases. Each worker's scripts/e2e-server.mjs fills
// its fresh data directory from the templates (E2E_*_DB_TEMPLATE), so no server migrates at start.
import { pgliteTemplate } from "../test-support/db/test-databases";
import { offersMigrations } from "../lib/offers/db";
import { portalMigrations } from "../lib/portal/db/database";
import { buildIfStale } from "../scripts/build-if-stale.mjs";

export default async function globalSetup(): Promise<void> {
  buildIfStale();
  // Set here, inherited by the workers and the servers they start.
  process.env.E2E_OFFERS_DB_TEMPLATE = await pgliteTemplate(offersMigrations);
  process.env.E2E_PORTAL_DB_TEMPLATE = await pgliteTemplate(portalMigrations);
}
