import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/offers/db/schema.ts",
  out: "./lib/offers/db/migrations",
  migrations: { table: "__offers_migrations", schema: "public" },
});
