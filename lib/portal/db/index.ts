// The portal database: its schema and types, and the handle of this process's services
// (lib/portal/services.ts opens it: PostgreSQL from PORTAL_DATABASE_URL or PGlite under DATA_DIR/portal,
// migrations applied at open).
import "server-only";
import { getPortalServices } from "../services";
import * as schema from "./schema";
import type { PortalDbHandle } from "./database";

export { schema };
export { portalMigrationsDir, portalMigrationsTable } from "../services";
export type { PortalSchema, PortalDatabase, PortalDbHandle } from "./database";

/**
 * The portal database handle, opened (and migrated) on first use:
 * `const { db } = await getPortalDb(); await db.select().from(schema.portalApiTokens)`.
 * It also has ping() (throws when the database cannot answer), kind ("pglite" | "postgres") and close().
 * A failed open is forgotten, so the next call retries (e.g. PostgreSQL was down at start).
 */
export const getPortalDb = (): Promise<PortalDbHandle> => getPortalServices().database();
