/**
 * The one place that builds the portal's services: its database (typed by its schema), the catalog
 * (the config repository's one writer), GitOps (source control and the config repository), app
 * orders (after interrupted approvals are finished), the authorizer behind authorize(), and the
 * client of the offers service's admin API.
 *
 *   const services = createPortalServices(settings);   // plain: tests build one on a temp repository and a test database
 *   const catalog = await services.catalog();
 *
 * Each part opens on first use and a failed open is forgotten, so the next call retries (PostgreSQL
 * down at start, source control away): one part failing does not take the others down.
 *
 * getPortalServices() is the process-wide instance built from the environment. It is the portal's
 * only holder on globalThis: Next's dev server reloads modules, and a second instance would open a
 * second writer on the config repository and a second pool on the database.
 */
import "server-only";
import path from "node:path";
import { getPortalEnv, type PortalEnv } from "../env/portal";
import { openDatabase } from "../db";
import { openCatalog, type Catalog } from "../catalog/catalog";
import { ensureConfigRepo } from "../catalog/repo";
import { snapshotFileFor } from "../catalog/snapshot";
import * as schema from "./db/schema";
import { portalMigrations, type PortalDatabase, type PortalDbHandle } from "./db/database";
import { configureTokenCache, defaultTokenCacheSettings, seedDevToken, verifyToken } from "./tokens";
import { configureFavoritesCache, defaultFavoritesCacheSettings } from "./favorites";
import { followCacheInvalidations } from "./cache-invalidation";
import { followCatalog, type CatalogFollowing, type CatalogFollowingOptions } from "./catalog-following";
import { wireGitOps, type GitOps, type GitOpsSettings } from "./gitops/providers";
import type { AppOrderDeps } from "./app-orders/orders";
import { recoverInterruptedApprovals } from "./app-orders/order-decisions";
import { createAuthorizer, type AuthorizeResult, type AuthorizerDeps } from "./auth/authorizer";
import { authSettingsFromEnv, getAuthSettings, getPortalConfig } from "./auth/settings";
import type { Role } from "./roles";
import type { Environment } from "../offers-client/schemas";
import { createOffersAdminClient, offersAdminSettings, type OffersAdminClient, type OffersAdminOptions } from "./offers-admin";
import { createPortalRateLimiter, type PortalRateLimiter, type PortalRateLimitSettings } from "./rate-limit";

export { portalMigrationsDir, portalMigrationsTable } from "./db/database";

export interface PortalSettings {
  database: {
    /** postgres:// URL; absent: PGlite under `dataDir`, or in memory without one. */
    url?: string;
    dataDir?: string;
    /** In memory (no url, no dataDir): start from this dump of a migrated data directory (tests' template). */
    loadDataDir?: Blob;
    /** PostgreSQL: the bound of each statement (default DATABASE_TIMEOUT_MS). */
    timeoutMs?: number;
    /** A personal API token seeded for the `dev` user (PORTAL_DEV_TOKEN). */
    devToken?: string;
    /** How long a verified API token is answered from memory (PORTAL_TOKEN_CACHE_TTL_MS; default 5000, 0 = off). */
    tokenCacheTtlMs?: number;
    /**
     * How long a user's favorites are answered from memory (PORTAL_FAVORITES_CACHE_TTL_MS, default 60000, 0 = off).
     * On PostgreSQL, changes made by other instances drop entries as they are notified (./cache-invalidation).
     */
    favoritesCacheTtlMs?: number;
  };
  catalog: {
    /** Where the config repository lives (DATA_DIR). */
    dataDir: string;
    /** The shipped records copied into a new repository (config/components). */
    shippedDir: string;
    /** Clone this repository instead of seeding from the shipped records (CONFIG_REPO_URL). */
    remoteUrl?: string;
    /** Keep the parsed catalog in a snapshot under dataDir between starts (CATALOG_SNAPSHOT). */
    snapshot?: boolean;
    /** How long a change waits before the snapshot is written (default 1000 ms). */
    snapshotDelayMs?: number;
    /** How this instance follows the commits of the others (PostgreSQL only; ./catalog-following.ts). */
    following?: CatalogFollowingOptions;
  };
  gitops: GitOpsSettings;
  /** Seed the lived-in demo at start (lib/portal/demo-seed.ts); only with the local provider. */
  demo?: boolean;
  /** What authorize() checks sessions and tokens with (the database's token check is added here). */
  auth: Omit<AuthorizerDeps, "verifyToken">;
  /** The offers service's admin API; read on first use (the token may be generated under DATA_DIR then). */
  offersAdmin: () => OffersAdminOptions;
  /** Answer 500 for an error code a route's OpenAPI table lacks (tests: lib/portal/http/openapi.ts). */
  checkErrorDocs?: boolean;
  /** Each user's request budget on the API routes (lib/portal/rate-limit.ts); absent = unlimited. */
  rateLimit?: PortalRateLimitSettings;
}

export interface PortalServices {
  readonly settings: PortalSettings;
  /** The database handle (ping, kind, close); opened and migrated on first use. */
  database(): Promise<PortalDbHandle>;
  db(): Promise<PortalDatabase>;
  catalog(): Promise<Catalog>;
  gitops(): Promise<GitOps>;
  /** App orders' dependencies; interrupted approvals of a previous process are finished first. */
  appOrders(): Promise<AppOrderDeps>;
  authorize(request: Request, role?: Role): Promise<AuthorizeResult>;
  /** The offers service's admin API, about one environment of the games (default live). */
  offersAdmin(environment?: Environment): OffersAdminClient;
  /** Each user's request budget (lib/portal/rate-limit.ts). */
  rateLimiter(): PortalRateLimiter;
  /** Closes what was opened (the database); the services are not used afterwards. */
  close(): Promise<void>;
}

/** The shipped demo records (config/components). */
export function shippedComponentsDir(): string {
  return path.resolve(process.cwd(), "config", "components");
}

/** The settings of a portal process, from its environment. */
export function portalSettingsFromEnv(env: PortalEnv = getPortalEnv()): PortalSettings {
  const auth = env === getPortalEnv() ? getAuthSettings() : authSettingsFromEnv(env);
  return {
    database: {
      url: env.PORTAL_DATABASE_URL,
      dataDir: env.PORTAL_DATABASE_URL ? undefined : path.join(env.DATA_DIR, "portal"),
      devToken: env.PORTAL_DEV_TOKEN || undefined,
      tokenCacheTtlMs: env.PORTAL_TOKEN_CACHE_TTL_MS,
      favoritesCacheTtlMs: env.PORTAL_FAVORITES_CACHE_TTL_MS,
    },
    catalog: { dataDir: env.DATA_DIR, shippedDir: shippedComponentsDir(), remoteUrl: env.CONFIG_REPO_URL || undefined, snapshot: env.CATALOG_SNAPSHOT === "on" },
    gitops: {
      provider: env.SCM_PROVIDER,
      dataDir: env.DATA_DIR,
      gitlabUrl: env.GITLAB_URL,
      gitlabToken: env.GITLAB_TOKEN,
      configRepoUrl: env.CONFIG_REPO_URL || undefined,
    },
    demo: env.PORTAL_DEMO_DATA === "on" || (env.PORTAL_DEMO_DATA === "auto" && env.SCM_PROVIDER === "local" && !env.CONFIG_REPO_URL),
    auth: {
      secret: auth.secret,
      sessionCookieName: auth.sessionCookieName,
      devLogin: auth.devLogin,
      publicOrigin: auth.publicOrigin,
      config: getPortalConfig,
    },
    offersAdmin: () => offersAdminSettings(env),
    rateLimit: { perMinute: env.PORTAL_RATE_LIMIT_PER_MINUTE, redisUrl: env.REDIS_URL, keyPrefix: `${env.REDIS_PREFIX}portal-rate-limit` },
  };
}

/** Opens on first use; a failed open is forgotten so the next call retries. */
function lazy<T>(open: () => Promise<T>): { get(): Promise<T>; opened(): Promise<T> | undefined } {
  let current: Promise<T> | undefined;
  return {
    get() {
      if (!current) {
        const opening = open();
        current = opening;
        opening.catch(() => {
          if (current === opening) current = undefined;
        });
      }
      return current;
    },
    opened: () => current,
  };
}

export function createPortalServices(settings: PortalSettings): PortalServices {
  const database = lazy(async () => {
    const handle = await openDatabase({
      url: settings.database.url,
      dataDir: settings.database.dataDir,
      loadDataDir: settings.database.loadDataDir,
      timeoutMs: settings.database.timeoutMs,
      schema,
      ...portalMigrations,
      onPoolError: (err) => console.error(`[portal] database pool error: ${err.message}`),
    });
    configureTokenCache(handle.db, { ...defaultTokenCacheSettings, ttlMs: settings.database.tokenCacheTtlMs ?? defaultTokenCacheSettings.ttlMs });
    configureFavoritesCache(handle.db, { ...defaultFavoritesCacheSettings, ttlMs: settings.database.favoritesCacheTtlMs ?? defaultFavoritesCacheSettings.ttlMs });
    await followCacheInvalidations(handle);
    if (settings.database.devToken) await seedDevToken(handle.db, settings.database.devToken);
    return handle;
  });
  // Opening recovers the repository first (stale git locks, working tree reset to the branch) and
  // reads the catalog from the committed content (or its snapshot, when it is kept), before any read or write.
  const following: { current: CatalogFollowing | null; closed: boolean } = { current: null, closed: false };
  const catalog = lazy(async () => {
    const repo = await ensureConfigRepo({ dataDir: settings.catalog.dataDir, shippedDir: settings.catalog.shippedDir, remoteUrl: settings.catalog.remoteUrl });
    const opened = await openCatalog({ repo, ...(settings.catalog.snapshot ? { snapshotFile: snapshotFileFor(repo.dir), snapshotDelayMs: settings.catalog.snapshotDelayMs } : {}) });
    // Other instances on the same PostgreSQL announce their commits (./catalog-following.ts). In the
    // background: the catalog serves without the database, and the database may come up later.
    if (settings.database.url) void followWhenOpen(() => database.get(), opened, following, settings.catalog.following);
    return opened;
  });
  const gitops = lazy(async () => {
    const [{ db }, c] = await Promise.all([database.get(), catalog.get()]);
    return wireGitOps(db, c, settings.gitops);
  });
  const appOrderDeps = lazy(async (): Promise<AppOrderDeps> => {
    const g = await gitops.get();
    return { db: g.db, catalog: g.catalog, config: g.config };
  });
  // Before the first order is read or decided, the approvals a previous process left in approving are
  // finished; when that fails (database or provider away), the next call tries again.
  const recovery = lazy(async () => {
    try {
      await recoverInterruptedApprovals(await appOrderDeps.get());
    } catch (e) {
      console.error(`[portal] interrupted approvals could not be recovered yet: ${(e as Error).message}`);
      throw e;
    }
  });
  const authorize = createAuthorizer({ ...settings.auth, verifyToken: async (token) => verifyToken((await database.get()).db, token) });
  const offersAdmin = new Map<Environment, OffersAdminClient>();
  let rateLimiter: PortalRateLimiter | undefined;
  return {
    settings,
    database: () => database.get(),
    db: async () => (await database.get()).db,
    catalog: () => catalog.get(),
    gitops: () => gitops.get(),
    appOrders: async () => {
      const deps = await appOrderDeps.get();
      await recovery.get().catch(() => undefined);
      return deps;
    },
    authorize,
    offersAdmin: (environment = "live") => {
      let client = offersAdmin.get(environment);
      if (!client) offersAdmin.set(environment, (client = createOffersAdminClient({ ...settings.offersAdmin(), environment })));
      return client;
    },
    rateLimiter: () => (rateLimiter ??= createPortalRateLimiter(settings.rateLimit ?? { perMinute: 0 })),
    close: async () => {
      await rateLimiter?.close();
      following.closed = true;
      await following.current?.close();
      const handle = await database.opened()?.catch(() => undefined);
      await handle?.close();
    },
  };
}

const globalForPortal = globalThis as unknown as { __portalServices?: PortalServices };

/** The portal's services in this process (built from the environment on first use). */
export function getPortalServices(): PortalServices {
  return (globalForPortal.__portalServices ??= createPortalServices(portalSettingsFromEnv()));
}

/**
 * Installs `services` as the process's services (tests: route handlers then run on them, with no
 * module mocked); answers the function that puts the previous ones back.
 */
export function setPortalServicesForTests(services: PortalServices): () => void {
  const previous = globalForPortal.__portalServices;
  globalForPortal.__portalServices = services;
  return () => {
    globalForPortal.__portalServices = previous;
  };
}

/**
 * Follows the other instances' commits once the database opens (tried again every 5 s until it does, or
 * until the services close); the following is kept in `into`.
 */
async function followWhenOpen(
  database: () => Promise<PortalDbHandle>,
  catalog: Catalog,
  into: { current: CatalogFollowing | null; closed: boolean },
  options?: CatalogFollowingOptions,
): Promise<void> {
  for (let attempt = 1; !into.closed; attempt++) {
    try {
      const following = await followCatalog(await database(), catalog, options);
      if (into.closed) await following?.close();
      else into.current = following;
      return;
    } catch (e) {
      if (attempt === 1) console.warn(`[portal] cannot follow the other instances' catalog commits yet (${(e as Error).message}); trying again every 5 s`);
      await new Promise((resolve) => setTimeout(resolve, 5000).unref());
    }
  }
}
