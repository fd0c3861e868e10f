import { defineConfig } from "drizzle-kit";

// Portal database: schema files under lib/portal/db/schema/, migrations applied at start by getPortalDb().
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/portal/db/schema/index.ts",
  out: "./lib/portal/db/migrations",
  migrations: { table: "__portal_migrations", schema: "public" },
});
