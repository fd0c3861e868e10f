/**
 * Vitest globalSetup of the integration and system tiers: builds the migrated templates of both
 * services' databases once before any test file starts (PGlite dumps, and template databases on
 * the TEST_DATABASE_URL server), so no test file migrates and no two workers race to build one.
 */
import { prepareTestDatabaseTemplates } from "../../lib/db/testing";
import { offersMigrations } from "../../lib/offers/db";
import { portalMigrations } from "../../lib/portal/db/database";

export default async function setup(): Promise<void> {
  await prepareTestDatabaseTemplates([offersMigrations, portalMigrations]);
}
