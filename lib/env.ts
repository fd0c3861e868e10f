/**
 * Every environment variable of both services, parsed once with zod.
 * Defaults are the embedded ones (PGlite under DATA_DIR, in-process bus, local git).
 * A bad value stops start-up with a message naming the variable and what it expects.
 * docs/operations/settings.md lists each of these; keep the two in step.
 */
import { z } from "zod";

const flag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url().optional());

const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);
const millis = (fallback: number) => z.coerce.number().int().min(10).max(86_400_000).default(fallback);

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Where embedded data lives: PGlite databases, local git repositories, generated secrets. */
  DATA_DIR: z.string().min(1).default(".data"),
  /**
   * PostgreSQL (both services): bound of every statement, of a wait for a pool connection and (plus
   * 1 s) of every answer; past it a request answers 503 database-unavailable.
   */
  DATABASE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** PostgreSQL (both services): bound of each migration statement at start, wait for another instance's migration lock included. */
  DATABASE_MIGRATION_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),

  // ---- offers service ----
  OFFERS_PORT: port(4000),
  OFFERS_HOST: z.string().min(1).default("127.0.0.1"),
  /** PostgreSQL URL of the offers database; unset = PGlite under DATA_DIR/offers. */
  OFFERS_DATABASE_URL: optionalUrl,
  /** Connections in the offers service's PostgreSQL pool per instance (8 measured best on a 2-core database host; raise with its cores). */
  OFFERS_DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(8),
  /** 32-byte key (64 hex chars or base64) that encrypts game API keys; unset = generated once under DATA_DIR. */
  OFFERS_SECRET_KEY: z.string().optional(),
  /** During a rotation of OFFERS_SECRET_KEY: the old key, still accepted for decryption (see secret-key:rotate). */
  OFFERS_SECRET_KEY_PREVIOUS: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
  /** Bearer token of the admin API used by the portal; unset = generated once under DATA_DIR. */
  OFFERS_ADMIN_TOKEN: z.string().min(16, "at least 16 characters").optional(),
  /** Redis URL for the cross-instance event bus; unset = in-process bus. */
  REDIS_URL: optionalUrl,
  /** Prepended to every Redis key and channel (bus, rate limits), so separate deployments can share one Redis. */
  REDIS_PREFIX: z.string().default(""),
  /**
   * Comma-separated addresses or CIDRs (or loopback, linklocal, uniquelocal) of the proxies whose
   * X-Forwarded-For/-Proto/-Host the offers service believes; unset = none, the peer is the client.
   * Only the proxy may be trusted: anyone else could forge a client address.
   */
  OFFERS_TRUST_PROXY: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(",").map((entry) => entry.trim()).filter(Boolean) : []))
    .pipe(z.array(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6(), z.enum(["loopback", "linklocal", "uniquelocal"])], { error: "an IP address, a CIDR, loopback, linklocal or uniquelocal" }))),
  /** Comma-separated origins of browser game clients allowed by CORS; unset = any origin. */
  OFFERS_CORS_ORIGINS: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(",").map((o) => o.trim()).filter(Boolean) : [])),
  OFFERS_MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(64 * 1024),
  /** Requests per minute of each player's game client, per game environment, unless the game sets its own; 0 = unlimited. */
  OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE: z.coerce.number().int().min(0).max(10_000_000).default(600),
  /** Requests per minute of a game environment's servers together, unless the game sets its own; 0 = unlimited. */
  OFFERS_RATE_LIMIT_SERVER_PER_MINUTE: z.coerce.number().int().min(0).max(10_000_000).default(120_000),
  OFFERS_SWEEP_INTERVAL_MS: millis(30_000),
  /** How often each instance looks for surfacing jobs and for schedule windows that opened. */
  OFFERS_SURFACING_POLL_MS: millis(1_000),
  /** Player transactions a surfacing job runs at once (keep below OFFERS_DATABASE_POOL_SIZE). */
  OFFERS_SURFACING_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** How long a surfacing job stays with an instance that stopped renewing it (crashed) before another resumes it. */
  OFFERS_SURFACING_LEASE_MS: millis(30_000),
  SSE_HEARTBEAT_MS: millis(30_000),
  SSE_IDLE_TIMEOUT_MS: millis(120_000),
  /** Run the webhook delivery worker on this instance (off: an API-only instance; another one delivers). */
  OFFERS_WEBHOOK_WORKER: z.enum(["on", "off"]).default("on"),
  /** Deadline of one webhook attempt; past it the attempt is a failure and is retried. */
  OFFERS_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** How often an idle delivery worker looks for work (a claim on the same instance wakes it at once). */
  OFFERS_WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(200),
  /** Webhook attempts in flight per instance. */
  OFFERS_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(256),
  /** Webhook attempts in flight to one endpoint per instance: what a slow or dead endpoint can hold. */
  OFFERS_WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(64),
  /** Allow webhook endpoints on loopback and private addresses in production (always allowed otherwise). */
  OFFERS_WEBHOOK_ALLOW_PRIVATE: flag,
  /** Days the delivery log keeps a delivery after it ended (delivered or failed); 0 = forever. Reward events are kept regardless. */
  OFFERS_DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(0).max(3_650).default(30),
  /** Seed the demo game: auto = when on the embedded database or in development. */
  OFFERS_DEMO_DATA: z.enum(["auto", "on", "off"]).default("auto"),
  DEMO_GAME_ID: z.string().min(1).default("demo-game"),
  DEMO_CLIENT_ID: z.string().min(1).default("demo-client"),
  DEMO_API_KEY: z.string().min(8).default("demo-api-key"),
  /** The demo game's test environment (its own players, offers and claims). */
  DEMO_TEST_CLIENT_ID: z.string().min(1).default("cl_test_demo"),
  DEMO_TEST_API_KEY: z.string().min(8).default("ok_test_demo-api-key"),
  /** Where players are sent with a one-time token: {DASHBOARD_URL}/rewards?token=…&gameId=… */
  DASHBOARD_URL: z.url().default("http://localhost:3000"),

  // ---- portal ----
  PORT: port(3000),
  /** Listen address of the portal (`next start --hostname`; the start scripts pass it). 0.0.0.0 in a container. */
  PORTAL_HOST: z.string().trim().min(1).default("127.0.0.1"),
  /** PostgreSQL URL of the portal database; unset = PGlite under DATA_DIR/portal. */
  PORTAL_DATABASE_URL: optionalUrl,
  /** Base URL of the offers service as the portal's server reaches it. */
  OFFERS_BASE_URL: z.url().default("http://127.0.0.1:4000"),
  NEXTAUTH_URL: optionalUrl,
  NEXTAUTH_SECRET: z.string().min(16, "at least 16 characters").optional(),
  /** Enables the development sign-in (any name, no password). Never in production. */
  PORTAL_DEV_LOGIN: flag,
  /** Lets the development sign-in run on a PORTAL_HOST other than loopback (a shared test host); without it such a start is refused. */
  PORTAL_DEV_LOGIN_ANY_HOST: flag,
  /** Seeds a personal API token of the admin user `admin` (development and CI scripts). */
  PORTAL_DEV_TOKEN: z.string().min(16, "at least 16 characters").optional(),
  /** Roles and providers file. */
  PORTAL_CONFIG: z.string().min(1).default("config/portal.yaml"),
  /** Git remote (or local path) of the config repository; unset = shipped config/ copied into DATA_DIR. */
  CONFIG_REPO_URL: z.string().optional(),
  /**
   * Keep the catalog's parsed state in DATA_DIR/catalog-snapshots/ so a restart does not read every record
   * file again; off: every start reads every file.
   */
  CATALOG_SNAPSHOT: z.enum(["on", "off"]).default("on"),
  SCM_PROVIDER: z.enum(["local", "gitlab"]).default("local"),
  /** Seed the portal's demo (config, releases, a merge request, an app order): auto = local source control without CONFIG_REPO_URL. */
  PORTAL_DEMO_DATA: z.enum(["auto", "on", "off"]).default("auto"),
  /** Requests per minute of each portal user (sessions and personal API tokens together) on the API routes; 0 = unlimited. */
  PORTAL_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(10_000_000).default(1_200),
  /** How long a verified personal API token is answered from memory (a revocation on another instance takes this long here); 0 = off. */
  PORTAL_TOKEN_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** How long a user's favorites are answered from memory; unset = 60000 on PGlite (one instance), 0 (off) on PostgreSQL. */
  PORTAL_FAVORITES_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
  GITLAB_URL: z.url().default("https://gitlab.com"),
  GITLAB_CLIENT_ID: z.string().optional(),
  GITLAB_CLIENT_SECRET: z.string().optional(),
  /** Token the portal's server uses for GitLab REST calls (SCM_PROVIDER=gitlab). */
  GITLAB_TOKEN: z.string().optional(),

  // ---- observability (both services) ----
  /** Bearer token a scraper sends to GET /metrics on each service's own port; unset = no /metrics there. */
  METRICS_TOKEN: z.string().min(16, "at least 16 characters").optional(),
  /** A port of its own serving the offers service's /metrics without a token (not exposed outside the cluster); unset = none. */
  OFFERS_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** A port of its own serving the portal's /metrics without a token; unset = none. */
  PORTAL_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** OTLP/HTTP collector (e.g. http://otel-collector:4318): traces are exported there; unset = tracing off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  /** service.name of the traces; default offers-service or portal. */
  OTEL_SERVICE_NAME: z.string().optional(),
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {}

/** Parses a set of variables; throws EnvError naming every bad variable and what it expects. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "");
      // A list setting (OFFERS_TRUST_PROXY) names the bad item of the variable.
      const item = typeof issue.path[1] === "number" ? ` (item ${issue.path[1] + 1})` : "";
      return `  ${name}=${JSON.stringify(source[name] ?? "")}${item}: ${issue.message}`;
    });
    throw new EnvError(`Invalid environment variables:\n${lines.join("\n")}\nSee docs/operations/settings.md.`);
  }
  return result.data;
}

let cached: Env | undefined;

/** The process environment, parsed on first use and then kept. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
