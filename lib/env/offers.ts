/**
 * Settings of the offers service: the shared base plus its own. The service parses them once at start
 * (main.ts, cli.ts); a bad value stops it with a message naming the variable and what it accepts. The portal never
 * parses these, so a bad offers setting cannot stop it.
 */
import { z } from "zod";
import { baseSchema } from "./base";
import { commaList, flag, integer, millis, oneOf, optionalUrl, port } from "./fields";
import { parseSettings, rememberBaseEnv, type SettingsRule } from "./parse";

export const offersOwnSchema = z.object({
  LOG_LEVEL: oneOf(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info")
    .describe("pino level of the offers service's log. Example: `debug`."),
  OFFERS_PORT: port().default(4000).describe("HTTP port. Example: `4000`."),
  OFFERS_HOST: z
    .string()
    .min(1, { error: "an address, not empty" })
    .default("127.0.0.1")
    .describe("Listen address (also of `OFFERS_METRICS_PORT`). Example: `0.0.0.0` in a container."),
  OFFERS_DATABASE_URL: optionalUrl().describe(
    "PostgreSQL URL of the offers database (tables `offers_*`, migrations in `__offers_migrations`, so it may share a database). Unset: PGlite under `DATA_DIR/offers`. Example: `postgres://offers:…@db.internal:5432/offers`.",
  ),
  OFFERS_DATABASE_POOL_SIZE: integer(1, 200)
    .default(8)
    .describe("PostgreSQL connections per instance (8 measured best against a 2-core database host; raise with its cores). A pooler in transaction mode must support named prepared statements (PgBouncer ≥ 1.21, `max_prepared_statements`). Should PostgreSQL's generic plan of a named statement go wrong on your data (its CPU per request jumps a few requests into each connection), `ALTER DATABASE … SET plan_cache_mode = force_custom_plan`. Example: `16`."),
  OFFERS_SECRET_KEY: z
    .string()
    .optional()
    .describe("32-byte key (64 hex characters, or base64 of 32 bytes) that encrypts the games' API keys; the same on every instance. The database keeps a check value of the key: an instance started with another key refuses to start (to change it, see “Rotating OFFERS_SECRET_KEY” in the operations pages). Unset: generated once into `DATA_DIR/secrets/offers-secret-key`. Example: the output of `npm run -s offers -- secret-key:generate`."),
  OFFERS_SECRET_KEY_PREVIOUS: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .describe("During a rotation of `OFFERS_SECRET_KEY` only: the old key, accepted for decryption, never for encryption (see `secret-key:rotate`). Example: the key being replaced."),
  OFFERS_TRUST_PROXY: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(",").map((entry) => entry.trim()).filter(Boolean) : []))
    .pipe(z.array(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6(), z.enum(["loopback", "linklocal", "uniquelocal"])], { error: "an IP address, a CIDR, loopback, linklocal or uniquelocal" })))
    .describe("Comma-separated addresses or CIDRs (or `loopback`, `linklocal`, `uniquelocal`) of the proxies whose `X-Forwarded-For`/`-Proto`/`-Host` the service believes. Unset: none, the peer is the client. Name only the proxy: anyone else trusted could forge a client's address. Example: `10.0.0.0/8`."),
  OFFERS_CORS_ORIGINS: commaList().describe(
    "Comma-separated origins of browser game clients allowed by CORS. Unset: any origin (no endpoint uses cookies). Example: `https://play.example.com,https://beta.example.com`.",
  ),
  OFFERS_MAX_BODY_BYTES: integer(1024, undefined, "bytes")
    .default(64 * 1024)
    .describe("Request body limit; a larger body answers 413. Example: `131072`."),
  OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE: integer(0, 10_000_000)
    .default(600)
    .describe("Requests per minute of each player's game client in a game environment, and of each client address redeeming a one-time token; `0` = unlimited. A game's own value (admin API, `rate-limits:set`) replaces it. Example: `1200`."),
  OFFERS_RATE_LIMIT_SERVER_PER_MINUTE: integer(0, 10_000_000)
    .default(120_000)
    .describe("Requests per minute of a game environment's servers together (API-key routes); `0` = unlimited; a game's own value replaces it. Example: `60000`."),
  OFFERS_SWEEP_INTERVAL_MS: millis(30_000).describe("Period of the expiry sweep (and of the delivery log's clean-up). Example: `10000`."),
  OFFERS_SURFACING_POLL_MS: millis(1_000).describe(
    "How often each instance looks for surfacing jobs and for schedule windows that opened, and for running bulk compensations (while there is none, up to 16 times less often). A change or approval made on this instance wakes it at once. Example: `500`.",
  ),
  OFFERS_SURFACING_CONCURRENCY: integer(1, 64)
    .default(4)
    .describe("Player transactions a surfacing job runs at once (50 players each); keep it below `OFFERS_DATABASE_POOL_SIZE` so requests keep connections. Example: `2`."),
  OFFERS_SURFACING_LEASE_MS: millis(30_000).describe(
    "How long a surfacing job stays with an instance that stopped renewing it (crashed) before another instance resumes it from its cursor. Example: `60000`.",
  ),
  OFFERS_BULK_BATCH_SIZE: integer(1, 10_000)
    .default(500)
    .describe("Players granted per transaction by a bulk compensation (each batch writes their ledger rows, events and item states at once). Example: `200`."),
  OFFERS_BULK_CONCURRENCY: integer(1, 64)
    .default(4)
    .describe("Bulk compensation transactions each instance runs at once (instances share a job); keep it below `OFFERS_DATABASE_POOL_SIZE`. Example: `2`."),
  SSE_HEARTBEAT_MS: millis(30_000).describe(
    "`:heartbeat` comment period on `/v1/sse/connect`; keep it at most two thirds of the SDK's watchdog and the proxy's read timeout (45 s each). Example: `15000`.",
  ),
  SSE_IDLE_TIMEOUT_MS: millis(120_000).describe("A stream client that has read nothing for this long is closed. Example: `60000`."),
  OFFERS_WEBHOOK_WORKER: oneOf(["on", "off"])
    .default("on")
    .describe("Run the webhook delivery worker on this instance; `off` for an instance that only serves the API (another one delivers). Example: `off`."),
  OFFERS_WEBHOOK_TIMEOUT_MS: integer(100, 60_000, "milliseconds")
    .default(10_000)
    .describe("Deadline of one webhook attempt; past it the attempt is a failure and is retried. Example: `5000`."),
  OFFERS_WEBHOOK_POLL_MS: integer(10, 60_000, "milliseconds")
    .default(200)
    .describe("How soon an idle delivery worker looks for work again; each quiet round doubles the wait, up to 16 times this (3.2 s at the default). A claim, replay, test event or retry on the same instance wakes it at once. Example: `500`."),
  OFFERS_WEBHOOK_CONCURRENCY: integer(1, 1_000)
    .default(256)
    .describe("Webhook attempts in flight per instance (and the most keep-alive connections to one receiving host). Example: `128`."),
  OFFERS_WEBHOOK_ENDPOINT_CONCURRENCY: integer(1, 200)
    .default(64)
    .describe("Webhook attempts in flight to one endpoint per instance: all a slow or dead endpoint can hold. Example: `32`."),
  OFFERS_WEBHOOK_ALLOW_PRIVATE: flag().describe(
    "In production, allow webhook endpoints on loopback, private and other special-purpose addresses (an in-cluster game server). Off, only public unicast addresses are reached, checked when saved (400 `webhook-url-not-allowed`) and at every connection ([decision](../decisions/2026-11-28-webhook-addresses-public-unicast-only.md)); outside production they are always allowed. Example: `1`.",
  ),
  OFFERS_DELIVERY_RETENTION_DAYS: integer(0, 3_650, "days")
    .default(30)
    .describe("Days the delivery log keeps a delivery after it ended (delivered or failed); `0` = forever. Reward events (the feed) are never deleted. Example: `90`."),
  OFFERS_BULK_RETENTION_DAYS: integer(0, 3_650, "days")
    .default(30)
    .describe(
      "Days a bulk compensation keeps its per-player rows (its result CSV) after it ended (done, cancelled, rejected or expired); then the sweep deletes them and the job keeps its counts. `0` = forever. Ledger rows and reward events are never deleted. Example: `90`.",
    ),
  OFFERS_ACTIVITY_RETENTION_DAYS: integer(0, 3_650, "days")
    .default(30)
    .describe(
      "Days a player's activity (snapshots pushed, event streams opened and closed, shown on the player's timeline) is kept; then the sweep deletes it. `0` = forever. Offer transitions, rewards and deliveries have their own rules. Example: `7`.",
    ),
  OFFERS_DEMO_DATA: oneOf(["auto", "on", "off"])
    .default("auto")
    .describe("Seed the demo game at start: `auto` = on the embedded database or in development. Example: `off`."),
  DEMO_GAME_ID: z.string().min(1, { error: "not empty" }).default("demo-game").describe("The demo game's id. Example: `my-demo`."),
  DEMO_CLIENT_ID: z.string().min(1, { error: "not empty" }).default("demo-client").describe("The demo game's API client id. Example: `my-demo-client`."),
  DEMO_API_KEY: z.string().min(8, { error: "at least 8 characters" }).default("demo-api-key").describe("The demo game's API key (at least 8 characters). Example: `my-demo-api-key`."),
  DEMO_TEST_CLIENT_ID: z
    .string()
    .min(1, { error: "not empty" })
    .default("cl_test_demo")
    .describe("API client id of the demo game's test environment (its own players, offers and claims). Example: `cl_test_mine`."),
  DEMO_TEST_API_KEY: z
    .string()
    .min(8, { error: "at least 8 characters" })
    .default("ok_test_demo-api-key")
    .describe("API key of the demo game's test environment (at least 8 characters). Example: `ok_test_mine`."),
  OFFERS_METRICS_PORT: port()
    .optional()
    .describe("A port of its own (on `OFFERS_HOST`) serving `/metrics` without a token, for a scraper inside the cluster on a port the proxy does not publish. Unset: none. Example: `9464`."),
});

export const offersSchema = baseSchema.extend(offersOwnSchema.shape);

export type OffersEnv = z.infer<typeof offersSchema>;

/** Rules between the offers service's settings (none today: each of its settings stands alone). */
export const offersRules: readonly SettingsRule<OffersEnv>[] = [];

/** Parses the offers service's settings; throws EnvError naming every bad variable and what it accepts. */
export function parseOffersEnv(source: Record<string, string | undefined>): OffersEnv {
  return parseSettings("the offers service", offersSchema, offersRules, source);
}

let cached: OffersEnv | undefined;

/** The offers service's settings from the process environment, parsed on first use and then kept. */
export function getOffersEnv(): OffersEnv {
  if (!cached) {
    cached = parseOffersEnv(process.env);
    rememberBaseEnv(cached);
  }
  return cached;
}
