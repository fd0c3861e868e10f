/**
 * Several portal instances share one PostgreSQL database, each with its own per-request caches
 * (verified API tokens, favorites). A change committed by any of them, or by plain SQL, is notified
 * on the `portal_cache` channel by triggers (migration 0005_cache_invalidation) and the entry it names
 * is dropped here. While the listening connection is down nothing can be heard, so both caches are
 * paused (every read goes to the database) until it listens again, and resume from empty.
 *
 * Behind a connection pooler in transaction mode LISTEN is accepted but nothing is ever delivered: the
 * listening connection must receive a probe sent through the pool (lib/db), so the caches stay paused.
 *
 * PGlite has one process only: its own changes already drop its entries, nothing to follow.
 */
import "server-only";
import type { Subscription } from "../db";
import type { PortalDbHandle } from "./db/database";
import { forgetFavorites, setFavoritesCacheActive } from "./favorites";
import { forgetVerifiedToken, setTokenCacheActive } from "./tokens";

export const CACHE_CHANNEL = "portal_cache";

export interface CacheFollowingOptions {
  /** Told when listening starts (true) and when it is lost (false). */
  onListening?: (listening: boolean) => void;
}

/** Follows the notifications of `handle`'s database (PostgreSQL); null on PGlite. */
export async function followCacheInvalidations(handle: PortalDbHandle, options: CacheFollowingOptions = {}): Promise<Subscription | null> {
  if (!handle.listen) return null;
  const { db } = handle;
  const setCaches = (active: boolean) => {
    setTokenCacheActive(db, active);
    setFavoritesCacheActive(db, active);
  };
  // Nothing is cached until the first LISTEN holds: a change made before it would not be heard.
  setCaches(false);
  return handle.listen(CACHE_CHANNEL, {
    onListening: () => {
      setCaches(true);
      options.onListening?.(true);
    },
    onDeaf: (reason) => {
      console.warn(`[portal] cache notifications not heard (${reason}): tokens and favorites are read from the database until they are`);
      setCaches(false);
      options.onListening?.(false);
    },
    onNotification: (payload) => {
      const split = payload.indexOf(":");
      const [cache, key] = [payload.slice(0, split), payload.slice(split + 1)];
      if (cache === "favorites") forgetFavorites(db, key);
      else if (cache === "tokens") forgetVerifiedToken(db, key);
    },
  });
}
