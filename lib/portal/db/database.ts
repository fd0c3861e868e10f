// The portal database's types, typed by its Drizzle schema. A module of its own (no server-only, no
// handle) so plain modules and tests name the types without opening anything.
import path from "node:path";
import type { AppDatabase, DatabaseHandle, MigrationSet } from "../../db";
import type * as schema from "./schema";

export type PortalSchema = typeof schema;
export type PortalDatabase = AppDatabase<PortalSchema>;
export type PortalDbHandle = DatabaseHandle<PortalSchema>;

/** Resolved from the working directory, like the offers service's. */
export const portalMigrationsDir = (): string => path.join(process.cwd(), "lib/portal/db/migrations");
export const portalMigrationsTable = "__portal_migrations";
/** The portal's migrations (what its test databases are templated from). */
export const portalMigrations: MigrationSet = { migrationsDir: portalMigrationsDir(), migrationsTable: portalMigrationsTable };
