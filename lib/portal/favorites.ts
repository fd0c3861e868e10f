/**
 * Favorites: per user, in the portal database (table component_favorites). Plain functions over a
 * Drizzle database so tests run them on PGlite and PostgreSQL.
 *
 * favoriteSet() answers from a per-user cache (every catalog search reads it): a change made through
 * addFavorite()/removeFavorite() in this process drops the user's entry, so the user sees it at once;
 * on PostgreSQL a change committed anywhere else drops it when its notification arrives
 * (./cache-invalidation.ts), and the cache is paused while those cannot be heard.
 */
import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { PortalDatabase } from "./db/database";
import { componentFavorites } from "./db/schema/favorites";
import { cachePerHandle, type CacheSettings } from "./ttl-cache";
import { recordAudit, type AuditContext } from "./audit";

type Db = PortalDatabase;

export type FavoritesCacheSettings = CacheSettings;
export const defaultFavoritesCacheSettings: FavoritesCacheSettings = { ttlMs: 60_000, maxEntries: 10_000 };

const favoritesCaches = cachePerHandle<Db, string, ReadonlySet<string>>("favorites", defaultFavoritesCacheSettings);
const favoritesCacheOf = (db: Db) => favoritesCaches.of(db);

/** Sets how favorites read from `db` are cached (lib/portal/services.ts). */
export function configureFavoritesCache(db: Db, settings: FavoritesCacheSettings, now?: () => number): void {
  favoritesCaches.configure(db, settings, now);
}

/** Drops the user's cached set (a change made elsewhere: ./cache-invalidation.ts). */
export function forgetFavorites(db: Db, userId: string): void {
  favoritesCacheOf(db).invalidate(userId);
}

/** Pauses (nothing cached, every read goes to the database) or resumes the favorites cache of `db`. */
export function setFavoritesCacheActive(db: Db, active: boolean): void {
  if (active) favoritesCacheOf(db).resume();
  else favoritesCacheOf(db).pause();
}

export async function listFavorites(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ name: componentFavorites.componentName })
    .from(componentFavorites)
    .where(eq(componentFavorites.userId, userId))
    .orderBy(asc(componentFavorites.componentName));
  return rows.map((r) => r.name);
}

/** The user's favorites as a set (shared: not to be changed by the caller). */
export async function favoriteSet(db: Db, userId: string): Promise<ReadonlySet<string>> {
  const cache = favoritesCacheOf(db);
  const cached = cache.get(userId);
  if (cached) return cached;
  const epoch = cache.epoch;
  const set: ReadonlySet<string> = new Set(await listFavorites(db, userId));
  cache.set(userId, set, epoch);
  return set;
}

/**
 * Idempotent: answers true when the star was added now, false when it was already there. With `audit`
 * (who asked), a star added now is audited in the same transaction.
 */
export async function addFavorite(db: Db, userId: string, componentName: string, audit?: AuditContext): Promise<boolean> {
  try {
    return await db.transaction(async (tx) => {
      const rows = await tx.insert(componentFavorites).values({ userId, componentName }).onConflictDoNothing().returning({ name: componentFavorites.componentName });
      const added = rows.length > 0;
      if (added && audit) await recordAudit(tx, audit, favoriteEntry(componentName, true), "in-transaction");
      return added;
    });
  } finally {
    // Also after a failure: the statement may have committed before its answer was lost.
    favoritesCacheOf(db).invalidate(userId);
  }
}

/** Idempotent: answers true when a star was removed. With `audit`, a removal is audited in the same transaction. */
export async function removeFavorite(db: Db, userId: string, componentName: string, audit?: AuditContext): Promise<boolean> {
  try {
    return await db.transaction(async (tx) => {
      const rows = await tx
        .delete(componentFavorites)
        .where(and(eq(componentFavorites.userId, userId), eq(componentFavorites.componentName, componentName)))
        .returning({ name: componentFavorites.componentName });
      const removed = rows.length > 0;
      if (removed && audit) await recordAudit(tx, audit, favoriteEntry(componentName, false), "in-transaction");
      return removed;
    });
  } finally {
    favoritesCacheOf(db).invalidate(userId);
  }
}

function favoriteEntry(name: string, favorite: boolean) {
  return {
    action: favorite ? "favorite.add" : "favorite.remove",
    targetType: "component",
    target: name,
    component: name,
    summary: `${favorite ? "starred" : "unstarred"} ${name}`,
    before: { favorite: !favorite },
    after: { favorite },
  } as const;
}
