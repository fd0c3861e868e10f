/**
 * Starts the offers service from settings: database (PostgreSQL or PGlite under DATA_DIR/offers)
 * with migrations, demo data, the app, the periodic expiry sweep, and graceful shutdown.
 * main.ts calls this. The app serves the event stream it is given (`eventStream`).
 */
import path from "node:path";
import type { Logger } from "pino";
import { createOffersLogger } from "./logger";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import type { OffersEnv } from "../env/offers";
import { persistentSecret } from "../secrets";
import { buildOffersApp } from "./app";
import { systemClock, type Clock } from "./clock";
import { openOffersDatabase, type OffersDatabaseHandle } from "./db";
import { seedDemoData } from "./demo";
import { SecretBox } from "./secret-box";
import { ensureSecretKeyMatches } from "./secret-key";
import { createEventBus, type EventBus } from "../events";
import { createEventStream, type EventStream } from "./sse";
import { SurfacingJobRunner } from "./engine/surfacing-jobs";
import { BulkCompensationRunner } from "./engine/bulk-runner";
import type { AddressPolicy } from "./delivery/address-guard";
import { deliveryStats } from "./delivery/delivery-log";
import { sweepOnce } from "./periodic-sweep";
import { DeliveryWorker } from "./delivery/worker";
import type { DeliveryStats } from "./contract";
import { addMetricsSource, cachedFor, countQueryError } from "./metrics";
import { serveMetrics } from "./http/metrics-server";
import { surfacingBacklog } from "./engine/surfacing-jobs";

/** PostgreSQL connections of the delivery worker, apart from the request pool. */
const DELIVERY_POOL_SIZE = 2;

export interface OffersSettings {
  databaseUrl?: string;
  pgliteDir: string;
  secretKey: string;
  /** OFFERS_SECRET_KEY_PREVIOUS: still decrypts during a rotation of the secret key. */
  previousSecretKey?: string;
  /** Said when the secret key is refused: where this instance's key came from. */
  secretKeySource: string;
  adminToken: string;
  seedDemo: boolean;
}

/** Database and secrets as both the service and the CLI resolve them from the environment. */
export function offersSettings(env: OffersEnv): OffersSettings {
  return {
    databaseUrl: env.OFFERS_DATABASE_URL,
    pgliteDir: path.join(env.DATA_DIR, "offers"),
    secretKey: persistentSecret(env.DATA_DIR, "offers-secret-key", env.OFFERS_SECRET_KEY),
    previousSecretKey: env.OFFERS_SECRET_KEY_PREVIOUS,
    secretKeySource: env.OFFERS_SECRET_KEY
      ? "This instance's key is OFFERS_SECRET_KEY."
      : `This instance's key was generated into ${path.join(env.DATA_DIR, "secrets", "offers-secret-key")} (OFFERS_SECRET_KEY is unset).`,
    adminToken: persistentSecret(env.DATA_DIR, "offers-admin-token", env.OFFERS_ADMIN_TOKEN),
    seedDemo:
      env.OFFERS_DEMO_DATA === "on" || (env.OFFERS_DEMO_DATA === "auto" && (!env.OFFERS_DATABASE_URL || env.NODE_ENV === "development")),
  };
}

export interface RunningOffersService {
  app: FastifyInstance;
  database: OffersDatabaseHandle;
  bus: EventBus;
  stream: EventStream;
  /** The webhook delivery worker (absent with OFFERS_WEBHOOK_WORKER=off). */
  delivery?: DeliveryWorker;
  url: string;
  /** Drains requests, stops timers, closes the database. Safe to call twice. */
  stop(): Promise<void>;
}

export async function startOffersService(options: {
  env: OffersEnv;
  logger?: Logger;
  clock?: Clock;
}): Promise<RunningOffersService> {
  const { env } = options;
  const logger = options.logger ?? createOffersLogger({ LOG_LEVEL: env.LOG_LEVEL, NODE_ENV: "production" });
  const clock = options.clock ?? systemClock;
  const settings = offersSettings(env);

  const database = await openOffersDatabase({
    url: settings.databaseUrl,
    dataDir: settings.databaseUrl ? undefined : settings.pgliteDir,
    poolSize: env.OFFERS_DATABASE_POOL_SIZE,
    onPoolError: (err) => logger.warn({ err }, "offers database connection lost"),
    onQueryError: countQueryError,
  });
  logger.info({ database: database.kind }, "offers database ready (migrations applied)");

  // Refuse to start with a secret key that cannot open the stored API keys (every API-key request would fail).
  try {
    const keyState = await ensureSecretKeyMatches(database.db, new SecretBox(settings.secretKey, settings.previousSecretKey), settings.secretKeySource);
    if (keyState === "rotation-pending") logger.warn("OFFERS_SECRET_KEY_PREVIOUS still seals the stored API keys: run `npm run offers -- secret-key:rotate`");
  } catch (error) {
    await database.close();
    throw error;
  }

  // Offers surfaced here reach streams held by other instances through Redis (in-process without it).
  const bus = createEventBus({ redisUrl: env.REDIS_URL, prefix: `${env.REDIS_PREFIX}offers-events:`, logger });
  logger.info({ bus: bus.kind }, "event bus ready");
  const stream = createEventStream({
    bus,
    heartbeatMs: env.SSE_HEARTBEAT_MS,
    staleTimeoutMs: env.SSE_IDLE_TIMEOUT_MS,
    logger,
  });

  // Webhook endpoints may not reach our own network in production unless the operator allows it.
  const webhookAddressPolicy: AddressPolicy = { allowPrivate: env.NODE_ENV !== "production" || env.OFFERS_WEBHOOK_ALLOW_PRIVATE };
  // /health shows the delivery lag; read at most every 2 s however often it is polled.
  let stats: { at: number; value: Promise<DeliveryStats> } | undefined;
  const deliveryHealth = () => {
    if (!stats || Date.now() - stats.at > 2_000) {
      stats = { at: Date.now(), value: deliveryStats(database.db, null, clock.now()) };
      stats.value.catch(() => (stats = undefined));
    }
    return stats.value;
  };

  // Rate-limit counters shared by every instance. While Redis is away, commands fail at once (no
  // offline queue) or after 250 ms (a hung server), and the limiter lets requests through.
  const limiterRedis = env.REDIS_URL
    ? new Redis(env.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 250, retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 2_000) })
    : undefined;
  limiterRedis?.on("error", (err: Error) => logger.warn({ err: err.message }, "redis of the rate limits unreachable: requests are not limited meanwhile"));

  const app = await buildOffersApp({
    database,
    secretKey: settings.secretKey,
    previousSecretKey: settings.previousSecretKey,
    adminToken: settings.adminToken,
    clock,
    logger,
    maxBodyBytes: env.OFFERS_MAX_BODY_BYTES,
    corsOrigins: env.OFFERS_CORS_ORIGINS,
    trustProxy: env.OFFERS_TRUST_PROXY,
    eventStream: stream,
    // Without Redis, offers still reach streams on this instance; /health says the bus is degraded.
    healthChecks: () => ({ bus: bus.state }),
    healthDetails: async () => ({ delivery: await deliveryHealth() }),
    webhookAddressPolicy,
    rateLimit: { clientPerMinute: env.OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE, serverPerMinute: env.OFFERS_RATE_LIMIT_SERVER_PER_MINUTE, redis: limiterRedis, keyPrefix: `${env.REDIS_PREFIX}offers-rate-limit:` },
    metricsToken: env.METRICS_TOKEN,
  });
  // Read at scrape time; the backlogs from the database at most every 2 s (delivery, shared with /health) and 5 s (surfacing).
  const removeMetricsSource = addMetricsSource({
    pool: database.poolStats,
    streams: () => ({ player: stream.hub.connectionCount, watcher: stream.hub.watcherCount }),
    delivery: deliveryHealth,
    surfacing: cachedFor(5_000, () => surfacingBacklog(database.db, clock.now())),
  });

  if (settings.seedDemo) {
    await seedDemoData({
      db: database.db,
      games: app.offers.games,
      box: new SecretBox(settings.secretKey, settings.previousSecretKey),
      clock,
      settings: { gameId: env.DEMO_GAME_ID, clientId: env.DEMO_CLIENT_ID, apiKey: env.DEMO_API_KEY, test: { clientId: env.DEMO_TEST_CLIENT_ID, apiKey: env.DEMO_TEST_API_KEY } },
    });
    logger.info({ gameId: env.DEMO_GAME_ID, clientId: env.DEMO_CLIENT_ID }, "demo data ready");
  }

  // Expiry is also applied on every read; the sweep makes it visible to players who do not read.
  let sweeping: Promise<void> | undefined;
  const retention = { deliveryDays: env.OFFERS_DELIVERY_RETENTION_DAYS, bulkDays: env.OFFERS_BULK_RETENTION_DAYS, activityDays: env.OFFERS_ACTIVITY_RETENTION_DAYS };
  const sweep = () => {
    if (sweeping) return;
    sweeping = (async () => {
      try {
        await sweepOnce(app.offers, database.db, retention, clock.now());
      } catch (err) {
        logger.warn({ err }, "expiry sweep failed; will retry");
      } finally {
        sweeping = undefined;
      }
    })();
  };
  const timer = setInterval(sweep, env.OFFERS_SWEEP_INTERVAL_MS);
  timer.unref();

  // Surfacing jobs (activations, edits, windows opening) run on whichever instance claims them first.
  const surfacing = new SurfacingJobRunner(app.offers.engine, {
    concurrency: env.OFFERS_SURFACING_CONCURRENCY,
    leaseMs: env.OFFERS_SURFACING_LEASE_MS,
    onProgress: (job) => {
      if (job.status !== "running") logger.info({ gameId: job.gameId, offerId: job.offerId, version: job.definitionVersion, status: job.status, players: job.playersEvaluated, activations: job.activations }, "surfacing job ended");
    },
  });
  const stopWakingSurfacing = app.offers.engine.onSurfacingJobQueued(() => surfacing.wake());
  surfacing.start(env.OFFERS_SURFACING_POLL_MS);
  // Approved bulk compensations: every instance takes batches of their players (FOR UPDATE SKIP
  // LOCKED), so they share a job; a job left running by a crash continues at the next poll.
  const bulk = new BulkCompensationRunner(app.offers.engine, {
    batchSize: env.OFFERS_BULK_BATCH_SIZE,
    concurrency: env.OFFERS_BULK_CONCURRENCY,
    onGranted: (gameId) => app.offers.engine.rewardGranted(gameId),
  });
  const stopWakingBulk = app.offers.engine.onBulkApproved(() => bulk.wake());
  bulk.start(env.OFFERS_SURFACING_POLL_MS);
  // Webhook deliveries: in the background, never in a claim's way; a claim here wakes the worker.
  // On PostgreSQL it has connections of its own: in the request pool its statements would queue
  // behind the claims (measured: seconds of delivery lag at the claims rate).
  const deliveryDatabase =
    env.OFFERS_WEBHOOK_WORKER === "on" && settings.databaseUrl
      ? await openOffersDatabase({ url: settings.databaseUrl, poolSize: DELIVERY_POOL_SIZE, onPoolError: (err) => logger.warn({ err }, "offers delivery database connection lost"), onQueryError: countQueryError })
      : undefined;
  const delivery =
    env.OFFERS_WEBHOOK_WORKER === "on"
      ? new DeliveryWorker({
          db: (deliveryDatabase ?? database).db,
          box: app.offers.box,
          addressPolicy: webhookAddressPolicy,
          timeoutMs: env.OFFERS_WEBHOOK_TIMEOUT_MS,
          pollMs: env.OFFERS_WEBHOOK_POLL_MS,
          concurrency: env.OFFERS_WEBHOOK_CONCURRENCY,
          perEndpoint: env.OFFERS_WEBHOOK_ENDPOINT_CONCURRENCY,
          logger,
        })
      : undefined;
  const stopWaking = delivery ? delivery.follow(app.offers.engine, app.offers.webhooks) : () => {};
  delivery?.start();

  const url = await app.listen({ host: env.OFFERS_HOST, port: env.OFFERS_PORT });
  logger.info({ url }, "offers service listening");
  const metricsServer = env.OFFERS_METRICS_PORT ? await serveMetrics({ host: env.OFFERS_HOST, port: env.OFFERS_METRICS_PORT }) : undefined;
  if (metricsServer) logger.info({ url: metricsServer.url }, "metrics served");

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      clearInterval(timer);
      stopWakingSurfacing();
      await surfacing.stop();
      stopWakingBulk();
      await bulk.stop();
      removeMetricsSource();
      await metricsServer?.close();
      await app.close(); // closes event streams, stops accepting, answers 503 to new requests, waits for in-flight ones
      await stream.close();
      stopWaking();
      // Attempts in flight are cut short and given back (due at once for the next instance that polls).
      await delivery?.stop();
      await deliveryDatabase?.close();
      await sweeping;
      await bus.close();
      limiterRedis?.disconnect();
      await database.close();
    })());
  return { app, database, bus, stream, delivery, url, stop };
}
