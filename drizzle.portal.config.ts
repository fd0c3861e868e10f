import { defineConfig } from "drizzle-kit";

// Portal database: schema files under lib/portal/db/schema/, migrations applied when the portal's services open the database (lib/portal/services.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/portal/db/schema/index.ts",
  out: "./lib/portal/db/migrations",
  migrations: { table: "__portal_migrations", schema: "public" },
});
