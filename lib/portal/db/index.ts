// The portal database: one handle per process (kept on globalThis so dev reloads reuse it),
// PostgreSQL from PORTAL_DATABASE_URL or PGlite under DATA_DIR/portal; migrations applied at open.
import "server-only";
import path from "node:path";
import { getEnv } from "@/lib/env";
import { openDatabase, type AppDatabase, type DatabaseHandle } from "@/lib/db";
import * as schema from "./schema";
import { seedDevToken } from "../tokens";

export { schema };
export type PortalSchema = typeof schema;
export type PortalDb = AppDatabase<PortalSchema>;
export type PortalDbHandle = DatabaseHandle<PortalSchema>;

export const portalMigrationsDir = () => path.join(process.cwd(), "lib/portal/db/migrations");
export const portalMigrationsTable = "__portal_migrations";

const globalForPortal = globalThis as unknown as { __portalDb?: Promise<PortalDbHandle> };

async function open(): Promise<PortalDbHandle> {
  const env = getEnv();
  const handle = await openDatabase({
    url: env.PORTAL_DATABASE_URL,
    dataDir: env.PORTAL_DATABASE_URL ? undefined : path.join(env.DATA_DIR, "portal"),
    schema,
    migrationsDir: portalMigrationsDir(),
    migrationsTable: portalMigrationsTable,
    onPoolError: (err) => console.error(`[portal] database pool error: ${err.message}`),
  });
  if (env.PORTAL_DEV_TOKEN) await seedDevToken(handle.db, env.PORTAL_DEV_TOKEN);
  return handle;
}

/**
 * The portal database handle, opened (and migrated) on first use:
 * `const { db } = await getPortalDb(); await db.select().from(schema.portalApiTokens)`.
 * It also has ping() (throws when the database cannot answer), kind ("pglite" | "postgres") and close().
 * A failed open is forgotten, so the next call retries (e.g. PostgreSQL was down at start).
 */
export function getPortalDb(): Promise<PortalDbHandle> {
  globalForPortal.__portalDb ??= open().catch((error: unknown) => {
    globalForPortal.__portalDb = undefined;
    throw error;
  });
  return globalForPortal.__portalDb;
}
