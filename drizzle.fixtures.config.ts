import { defineConfig } from "drizzle-kit";
export default defineConfig({ dialect: "postgresql", schema: "./lib/db/fixtures/schema.ts", out: "./lib/db/fixtures/migrations" });
