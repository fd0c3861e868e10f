/**
 * Several portal instances serve one config repository (CONFIG_REPO_URL), each with its catalog in
 * memory. Each commit one of them publishes on the served branch (a record edit, a config commit, a merge,
 * an approved app order, an import, a refresh that pulled something new) is announced on PostgreSQL's
 * `portal_catalog` channel with its sha; every other instance then pulls and re-reads only the files that
 * changed (Catalog.refresh), so what one instance wrote shows through all within a notification and a
 * fetch. Refreshes are serialised by the catalog's lock and coalesced here: a burst of commits costs at most
 * one pull running and one waiting, and the last one takes whatever the remote holds by then, so no commit
 * is skipped or shown out of order.
 *
 * While the listening connection is down nothing is heard: the catalog pulls every `deafPollMs` until it
 * listens again, then once more (what was announced meanwhile). A lost announcement (the announcing
 * instance's database call failed) is caught up by a slow pull every `safetyPollMs`.
 *
 * PGlite has one process only: nothing to follow.
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Catalog } from "../catalog/catalog";
import type { PortalDbHandle } from "./db/database";

export const CATALOG_CHANNEL = "portal_catalog";

export interface CatalogFollowingOptions {
  /** How often to pull while notifications cannot be heard (default 2000 ms). */
  deafPollMs?: number;
  /** How often to pull anyway, for an announcement that was never sent (default 60000 ms; 0 = never). */
  safetyPollMs?: number;
  /** Told when listening starts (true) and when it is lost (false). */
  onListening?: (listening: boolean) => void;
}

export interface CatalogFollowing {
  /** Waits for the refresh running or asked for (tests). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Announces this instance's commits and follows the others'; null on PGlite. */
export async function followCatalog(handle: PortalDbHandle, catalog: Catalog, options: CatalogFollowingOptions = {}): Promise<CatalogFollowing | null> {
  if (!handle.listen) return null;
  const deafPollMs = options.deafPollMs ?? 2000;
  const safetyPollMs = options.safetyPollMs ?? 60_000;
  const refresher = coalescedRefresh(catalog);
  let closed = false;

  const stopAnnouncing = catalog.onPublished((commit) => {
    if (closed) return;
    handle.db.execute(sql`select pg_notify(${CATALOG_CHANNEL}, ${commit})`).catch((e: unknown) => {
      console.warn(`[portal] could not announce catalog commit ${commit.slice(0, 12)} to the other instances (${(e as Error).message}); they see it on their next pull`);
    });
  });

  let deafTimer: NodeJS.Timeout | undefined;
  const setDeaf = (deaf: boolean) => {
    clearInterval(deafTimer);
    deafTimer = deaf && !closed ? setInterval(() => refresher.request(), deafPollMs) : undefined;
    deafTimer?.unref();
  };
  const safetyTimer = safetyPollMs > 0 ? setInterval(() => refresher.request(), safetyPollMs) : undefined;
  safetyTimer?.unref();

  // Pulls until the first LISTEN holds: a commit announced before it would not be heard.
  setDeaf(true);
  const subscription = await handle.listen(CATALOG_CHANNEL, {
    onListening: () => {
      setDeaf(false);
      // Whatever was announced while not listening.
      refresher.request();
      options.onListening?.(true);
    },
    onDeaf: (reason) => {
      console.warn(`[portal] catalog announcements not heard (${reason}): pulling the config repository every ${deafPollMs} ms until they are`);
      setDeaf(true);
      options.onListening?.(false);
    },
    onNotification: (commit) => {
      if (commit !== catalog.loadedCommit) refresher.request();
    },
  });

  return {
    settled: () => refresher.settled(),
    close: async () => {
      closed = true;
      stopAnnouncing();
      setDeaf(false);
      clearInterval(safetyTimer);
      await subscription.close();
      await refresher.settled();
    },
  };
}

/** One refresh running and at most one waiting; a request made while one runs is served by the next. */
function coalescedRefresh(catalog: Catalog): { request(): void; settled(): Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): Promise<void> =>
    catalog
      .refresh({ pull: true, following: true })
      .then(
        (summary) => {
          if (summary.pull && !summary.pull.ok) console.warn(`[portal] following the catalog: ${summary.pull.message}`);
        },
        (e: unknown) => console.warn(`[portal] following the catalog: refresh failed: ${(e as Error).message}`),
      )
      .then(() => {
        if (again) {
          again = false;
          return run();
        }
        running = null;
      });
  return {
    request() {
      if (running) again = true;
      else running = run();
    },
    settled: async () => {
      while (running) await running;
    },
  };
}
