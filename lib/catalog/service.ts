/**
 * The process-wide catalog of the portal, opened on first use from the environment:
 * DATA_DIR (where the config repository lives) and CONFIG_REPO_URL (clone instead of the shipped copy).
 * Kept on globalThis so dev reloads reuse one instance (one writer per repository). Opening recovers
 * the repository first (stale git locks, working tree reset to the branch) and reads the catalog from
 * the committed content, so it happens in every portal process before any read or write.
 */
import path from "node:path";
import { getEnv } from "../env";
import { Catalog, openCatalog } from "./catalog";
import { ensureConfigRepo } from "./repo";

const globalForCatalog = globalThis as unknown as { __portalCatalog?: Promise<Catalog> };

export function shippedComponentsDir(): string {
  return path.resolve(process.cwd(), "config", "components");
}

export function getCatalog(): Promise<Catalog> {
  if (!globalForCatalog.__portalCatalog) {
    const env = getEnv();
    const opening = ensureConfigRepo({ dataDir: env.DATA_DIR, shippedDir: shippedComponentsDir(), remoteUrl: env.CONFIG_REPO_URL || undefined }).then(
      (repo) => openCatalog({ repo }),
    );
    // A failed open is retried on the next call instead of being cached.
    opening.catch(() => {
      if (globalForCatalog.__portalCatalog === opening) delete globalForCatalog.__portalCatalog;
    });
    globalForCatalog.__portalCatalog = opening;
  }
  return globalForCatalog.__portalCatalog;
}
