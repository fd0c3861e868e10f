/**
 * Vitest globalSetup of the integration and system tiers: builds the migrated templates of both
 * services' databases once before any test file starts (PGlite dumps, and template databases on
 * the TEST_DATABASE_URL server), so no test file migrates and no two workers race to build one.
 * It also tags the run: scratch PostgreSQL databases are dropped together at its end, not one by one.
 */
import { dropRunDatabases, newTestDatabaseRun, prepareTestDatabaseTemplates, TEST_DATABASE_RUN } from "../../test-support/db/test-databases";
import { offersMigrations } from "../../lib/offers/db";
import { portalMigrations } from "../../lib/portal/db/database";

export default async function setup(): Promise<() => Promise<void>> {
  await prepareTestDatabaseTemplates([offersMigrations, portalMigrations]);
  const run = newTestDatabaseRun();
  process.env[TEST_DATABASE_RUN] = run;
  return async () => {
    await dropRunDatabases(run);
    delete process.env[TEST_DATABASE_RUN];
  };
}
