/**
 * A real portal for tests: the services of lib/portal/services.ts on a test database (PGlite in
 * memory, or a fresh PostgreSQL database when TEST_DATABASE_URL is set), a config repository (real
 * git) in a temp folder seeded with the given records, and local source control under it. It is
 * installed as the process's services, so route handlers run unchanged and nothing is mocked; users
 * sign in through the real authorizer (a development session cookie, or a personal API token in
 * the test database), with the roles the test gives them (the context's portal config says so).
 *
 *   const portal = await startPortalTest({ components: { "a.yaml": yamlOf(validComponent("alpha")) } });
 *   const alice = await portal.signIn({ id: "alice", roles: ["engineer"] });
 *   await GET(new Request("http://portal.test/api/components", { headers: alice }));
 *   await portal.close();   // puts the previous services back, closes and removes everything
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { createScratchPostgres, openTestDatabase, pgliteTemplateDump, primaryTestDatabase, seedPgliteDataDir, type TestDatabase, type TestDatabaseTarget } from "../db/test-databases";
import type { MigrationSet } from "../../lib/db";
import * as schema from "../../lib/portal/db/schema";
import { PortalError } from "../../lib/portal/errors";
import type { Catalog } from "../../lib/catalog/catalog";
import { portalConfigSchema, type PortalConfig } from "../../lib/portal/portal-yaml";
import type { PortalDatabase } from "../../lib/portal/db/database";
import type { GitOps } from "../../lib/portal/gitops/providers";
import { portalMigrations } from "../../lib/portal/db/database";
import { createPortalServices, setPortalServicesForTests, type PortalServices, type PortalSettings } from "../../lib/portal/services";
import { devProviderId } from "../../lib/portal/auth/settings";
import { createToken } from "../../lib/portal/tokens";
import type { Role } from "../../lib/portal/roles";
import type { OffersAdminOptions } from "../../lib/portal/offers-admin";
import { builtOffersServiceArgs } from "../built";
import { freePort } from "../throwaway";

/** The offers service's migrations (lib/offers/db), named by path: the portal does not import the service. */
const offersServiceMigrations: MigrationSet = { migrationsDir: path.join(process.cwd(), "lib/offers/db/migrations"), migrationsTable: "__offers_migrations" };

export const testSessionCookieName = "next-auth.session-token";
const testSecret = "portal-test-secret-0123456789abcdef";

export interface PortalTestOptions {
  /** Files of the shipped components folder the config repository starts from (file name → text). */
  components?: Record<string, string>;
  /** Default: PostgreSQL when TEST_DATABASE_URL is set, else PGlite. */
  target?: TestDatabaseTarget;
  /** Changes to the settings the context builds (e.g. a database out of reach). */
  settings?: (settings: PortalSettings) => PortalSettings;
}

export interface TestUser {
  id: string;
  /** Default: the id. */
  name?: string;
  roles: Role[];
  email?: string;
  /** The groups the sign-in reports (default none). */
  groups?: string[];
}

export interface PortalTest {
  services: PortalServices;
  /** The temp folder holding the data directory and the shipped records. */
  root: string;
  db: PortalDatabase;
  catalog: Catalog;
  gitops: GitOps;
  /** The portal config the authorizer reads roles from (the test's users are added by signIn). */
  config: PortalConfig;
  /**
   * Headers that sign the user in through the real authorizer: a development session cookie (with the
   * Sec-Fetch-Site a browser's same-origin request carries), or with
   * `via: "token"` a personal API token created in the test database. The user holds exactly `roles`.
   */
  signIn(user: TestUser, via?: "session" | "token"): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export async function startPortalTest(options: PortalTestOptions = {}): Promise<PortalTest> {
  const root = await mkdtemp(path.join(tmpdir(), "portal-test-"));
  const shippedDir = path.join(root, "shipped");
  const dataDir = path.join(root, "data");
  await mkdir(shippedDir, { recursive: true });
  for (const [name, text] of Object.entries(options.components ?? {})) await writeFile(path.join(shippedDir, name), text);

  const target = options.target ?? primaryTestDatabase();
  const scratch = target === "postgres" ? await createScratchPostgres({ template: portalMigrations }) : undefined;
  // Roles exactly as each test user is given them: no default role.
  const config = portalConfigSchema.parse({ roles: { default: [], users: {}, groups: {} } });
  const base: PortalSettings = {
    database: scratch ? { url: scratch.url } : { loadDataDir: await pgliteTemplateDump(portalMigrations) },
    catalog: { dataDir, shippedDir },
    gitops: { provider: "local", dataDir, gitlabUrl: "http://gitlab.invalid", demo: false },
    auth: { secret: testSecret, sessionCookieName: testSessionCookieName, devLogin: true, config: () => config },
    // No offers service in unit tests: a test that needs one gives its own (options.settings).
    offersAdmin: () => ({ baseUrl: "http://offers.invalid", token: "portal-test-offers-admin-token" }),
    checkErrorDocs: true,
  };
  const services = createPortalServices(options.settings ? options.settings(base) : base);
  const restore = setPortalServicesForTests(services);
  const close = async () => {
    restore();
    await services.close().catch(() => {});
    await scratch?.drop().catch(() => {});
    await rm(root, { recursive: true, force: true });
  };
  try {
    const [db, catalog, gitops] = await Promise.all([services.db(), services.catalog(), services.gitops()]);
    return {
      services,
      root,
      db,
      catalog,
      gitops,
      config,
      async signIn(user, via = "session"): Promise<Record<string, string>> {
        config.roles.users[user.id] = user.roles;
        const name = user.name ?? user.id;
        if (via === "token") {
          const created = await createToken(db, { id: user.id, name, email: user.email, groups: user.groups ?? [] }, `test token of ${user.id}`);
          return { authorization: `Bearer ${created.token}` };
        }
        const token = await encode({ token: { username: user.id, name, email: user.email, provider: devProviderId, groups: user.groups ?? [] }, secret: testSecret });
        // What a browser sends with the cookie on a write from the portal's own pages.
        return { cookie: `${testSessionCookieName}=${token}`, "sec-fetch-site": "same-origin" };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The portal database on its own (schema and migrations) on a test database, for tests of lib/portal code that takes a db. */
export function openPortalTestDatabase(target: TestDatabaseTarget): Promise<TestDatabase<typeof schema>> {
  return openTestDatabase(target, { schema, ...portalMigrations });
}

/** Awaits `p`, which must reject with a PortalError, and answers that error. */
export async function rejectsWithPortalError(p: Promise<unknown>): Promise<PortalError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  if (!(e instanceof PortalError)) throw new Error(`expected a PortalError, got ${e === null ? "a success" : String(e)}`);
  return e;
}

// ---------- a real offers service for route tests ----------

export interface OffersServiceForTests {
  /** http://127.0.0.1:<port>, without /v1. */
  baseUrl: string;
  /** The admin client's settings pointing at it: `settings: (s) => ({ ...s, offersAdmin: () => offers.admin })`. */
  admin: OffersAdminOptions;
  /** Game-server headers of the demo game (demo-game, demo-client, demo-api-key). */
  apiHeaders: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The offers service as its own process (the built dist/offers/main.mjs), as the portal meets it in
 * production: over HTTP only, with its demo game and players, on PGlite in a temp folder (a fresh
 * PostgreSQL database when TEST_DATABASE_URL is set). Surfacing jobs are polled every 100 ms.
 * `settings`: more OFFERS_* variables (e.g. a rate limit).
 */
export async function startOffersServiceForTests(settings: Record<`OFFERS_${string}`, string> = {}): Promise<OffersServiceForTests> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "portal-offers-"));
  const scratch = process.env.TEST_DATABASE_URL ? await createScratchPostgres({ template: offersServiceMigrations }) : undefined;
  if (!scratch) await seedPgliteDataDir(path.join(dataDir, "offers"), offersServiceMigrations);
  const port = await freePort();
  const token = "portal-test-offers-admin-token-0123456789";
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OFFERS_") && k !== "REDIS_URL" && k !== "NODE_OPTIONS"));
  const child = spawn(process.execPath, builtOffersServiceArgs(), {
    cwd: process.cwd(),
    env: {
      ...inherited,
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      OFFERS_PORT: String(port),
      OFFERS_ADMIN_TOKEN: token,
      OFFERS_DEMO_DATA: "on",
      OFFERS_SURFACING_POLL_MS: "100",
      LOG_LEVEL: "warn",
      ...settings,
      ...(scratch ? { OFFERS_DATABASE_URL: scratch.url } : {}),
    } as NodeJS.ProcessEnv,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      await exited;
    }
    await scratch?.drop().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the offers service exited (${child.exitCode}): ${stderr}`);
      const healthy = await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false);
      if (healthy) break;
      if (Date.now() > deadline) throw new Error(`the offers service did not become healthy: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { baseUrl, admin: { baseUrl, token }, apiHeaders: { "x-api-key": "demo-api-key", "x-client-id": "demo-client" }, close };
}
