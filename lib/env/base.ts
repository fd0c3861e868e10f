/**
 * Settings both services read. Each service parses these with its own (offers.ts, portal.ts); lib/db reads them
 * through getBaseEnv (parse.ts). Defaults are the embedded ones (PGlite under DATA_DIR, in-process bus).
 */
import { z } from "zod";
import { integer, oneOf, optionalUrl, token } from "./fields";

export const baseSchema = z.object({
  NODE_ENV: oneOf(["development", "production", "test"])
    .default("development")
    .describe("How the process runs: `development` (pretty logs, private webhook addresses allowed), `production` or `test`. `npm start` sets `production`, `npm run dev` `development`. Example: `production`."),
  DATA_DIR: z
    .string()
    .min(1, { error: "a directory path, not empty" })
    .default(".data")
    .describe("Where embedded data lives: PGlite databases (`offers/`, `portal/`), the local config repository, local source repositories, generated secrets (`secrets/`), the catalog's snapshot (`catalog-snapshots/`). Example: `/data`."),
  DATABASE_TIMEOUT_MS: integer(100, 600_000, "milliseconds")
    .default(5_000)
    .describe("PostgreSQL only, each service: bound of every statement, of a wait for a pool connection and of the health ping; the client waits 1 s longer for an answer. Past it a request answers 503 `database-unavailable`. Example: `5000`."),
  DATABASE_MIGRATION_TIMEOUT_MS: integer(1_000, 3_600_000, "milliseconds")
    .default(60_000)
    .describe("PostgreSQL only: bound of each migration statement at start, the wait for another instance's migration lock included. Example: `120000`."),
  OFFERS_ADMIN_TOKEN: token()
    .optional()
    .describe("Bearer token of the offers service's admin API: the offers service expects it, the portal sends it (its admin client, and the rewards page's redeems). Set the same value on both. Unset: generated once into `DATA_DIR/secrets/offers-admin-token` (one machine only). Example: the output of `openssl rand -base64 32`."),
  REDIS_URL: optionalUrl().describe(
    "Redis shared by every instance: the offers service's cross-instance event bus and rate-limit counters, the portal's rate-limit counters. Unset: in-process bus and counters. Example: `redis://redis.internal:6379`.",
  ),
  REDIS_PREFIX: z
    .string()
    .default("")
    .describe("Prepended to every Redis key and channel of both services, so separate deployments can share one Redis; the same on every instance of one deployment. Example: `staging:`."),
  METRICS_TOKEN: token()
    .optional()
    .describe("Bearer token a scraper sends to `GET /metrics` on each service's own port (offers 4000, portal 3000). Unset: `/metrics` there answers 404. Example: the output of `openssl rand -base64 32`."),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl().describe(
    "OTLP/HTTP collector both services export traces to; the other standard `OTEL_*` variables apply. Unset: tracing off (the SDK is not loaded). Example: `http://otel-collector:4318`.",
  ),
  OTEL_SERVICE_NAME: z
    .string()
    .optional()
    .describe("`service.name` of the spans. Unset: `offers-service` or `portal`. Example: `offers-eu`."),
});

export type BaseEnv = z.infer<typeof baseSchema>;
