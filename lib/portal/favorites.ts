/**
 * Favorites: per user, in the portal database (table component_favorites). Plain functions over a
 * Drizzle database so tests run them on PGlite and PostgreSQL.
 */
import { and, asc, eq } from "drizzle-orm";
import type { PortalDatabase } from "./db/database";
import { componentFavorites } from "./db/schema/favorites";

type Db = PortalDatabase;

export async function listFavorites(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ name: componentFavorites.componentName })
    .from(componentFavorites)
    .where(eq(componentFavorites.userId, userId))
    .orderBy(asc(componentFavorites.componentName));
  return rows.map((r) => r.name);
}

export async function favoriteSet(db: Db, userId: string): Promise<Set<string>> {
  return new Set(await listFavorites(db, userId));
}

/** Idempotent: answers true when the star was added now, false when it was already there. */
export async function addFavorite(db: Db, userId: string, componentName: string): Promise<boolean> {
  const rows = await db.insert(componentFavorites).values({ userId, componentName }).onConflictDoNothing().returning({ name: componentFavorites.componentName });
  return rows.length > 0;
}

/** Idempotent: answers true when a star was removed. */
export async function removeFavorite(db: Db, userId: string, componentName: string): Promise<boolean> {
  const rows = await db
    .delete(componentFavorites)
    .where(and(eq(componentFavorites.userId, userId), eq(componentFavorites.componentName, componentName)))
    .returning({ name: componentFavorites.componentName });
  return rows.length > 0;
}
