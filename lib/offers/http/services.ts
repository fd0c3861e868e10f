/**
 * What the app is built from (its dependencies) and what its route plugins share (the services):
 * engine, game directory, one-time tokens, clock, and the two caller authentications.
 */
import type { FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Clock } from "../clock";
import { systemClock } from "../clock";
import type { OffersDatabaseHandle } from "../db";
import { OffersEngine } from "../engine";
import { GameDirectory } from "../games";
import { extractJwt, JwtError, verifyGameJwt, type VerifiedJwt } from "../jwt";
import { jwtRejectionsTotal } from "../metrics";
import { SecretBox } from "../secret-box";
import { RateLimitSettings } from "../rate-limits";
import { OneTimeTokens } from "../tokens";
import type { AddressPolicy } from "../delivery/address-guard";
import { WebhookEndpoints } from "../delivery/endpoints";
import type { EventStream } from "../sse";

export interface OffersAppDeps {
  database: Pick<OffersDatabaseHandle, "db" | "ping">;
  /** AES-256-GCM key of stored API keys (OFFERS_SECRET_KEY: 64 hex chars or base64 of 32 bytes). */
  secretKey: string | Buffer;
  /** The key before a rotation of the secret key (OFFERS_SECRET_KEY_PREVIOUS): decrypts, never encrypts. */
  previousSecretKey?: string | Buffer;
  /** Bearer token of the admin API (used by the admin routes that build on this app). */
  adminToken: string;
  clock?: Clock;
  /** pino logger; absent = silent. */
  logger?: Logger;
  /** Request bodies above this answer 413 (OFFERS_MAX_BODY_BYTES, default 64 KiB). */
  maxBodyBytes?: number;
  /**
   * Origins of browser game clients allowed to call the API (CORS); default every origin. Safe
   * because no endpoint uses cookies: callers authenticate with headers a page cannot borrow.
   */
  corsOrigins?: string[];
  /** Proxies whose X-Forwarded-* headers are believed (OFFERS_TRUST_PROXY: addresses, CIDRs); default none. */
  trustProxy?: string[];
  /** An engine built elsewhere (e.g. with listeners already attached); default: one over database.db. */
  engine?: OffersEngine;
  /**
   * The event stream (../sse): the app attaches it to its engine and serves, with its hub, the players'
   * streams and the admin API of players (presence, the watch stream). Absent: neither is served.
   */
  eventStream?: EventStream;
  /**
   * Parts that can degrade without making the service unusable (the event bus), reported by /health
   * and /ready: a degraded one sets `status: "degraded"` and leaves the answer 200.
   */
  healthChecks?: () => Record<string, "ok" | "degraded">;
  /** Figures /health adds to its answer (e.g. the delivery lag); they never change its status. */
  healthDetails?: () => Promise<Record<string, unknown>>;
  /**
   * Whether webhook endpoints may reach loopback and private addresses. Default: allowed (tests and
   * development); the service refuses them in production unless OFFERS_WEBHOOK_ALLOW_PRIVATE is set.
   */
  webhookAddressPolicy?: AddressPolicy;
  /**
   * Rate limits (plugins/rate-limit.ts): the default budgets per minute (0 = unlimited; a game's own
   * values apply either way) and the Redis whose counters every instance shares. Absent: no default
   * budgets, counters in this process.
   */
  rateLimit?: { clientPerMinute: number; serverPerMinute: number; redis?: Redis; keyPrefix?: string };
  /** Bearer token of GET /metrics on the service's port (METRICS_TOKEN); absent = no such route. */
  metricsToken?: string;
  /** Fail a request whose status or body its route does not document (tests; see plugins/input.ts). */
  checkResponses?: boolean;
}

export interface OffersServices {
  engine: OffersEngine;
  games: GameDirectory;
  tokens: OneTimeTokens;
  /** The game's webhook endpoints (reward delivery). */
  webhooks: WebhookEndpoints;
  /** The key that seals API keys and webhook secrets. */
  box: SecretBox;
  /** The request budgets of each game environment. */
  rateLimits: RateLimitSettings;
  clock: Clock;
  deps: OffersAppDeps;
  /** Verifies the request's game JWT; throws JwtError. */
  authenticateJwt(request: FastifyRequest): Promise<VerifiedJwt>;
  /** Verifies x-client-id + x-api-key; throws ApiKeyRejected. */
  authenticateApiKey(request: FastifyRequest): Promise<{ gameId: string; clientId: string }>;
}

/** API key refused: 401 with the bare JSON string "invalid-api-key" (the error handler's answer). */
export class ApiKeyRejected extends Error {
  constructor() {
    super("invalid-api-key");
  }
}

/** Admin token missing or wrong: 401 {"message": "invalid-admin-token"} (the error handler's answer). */
export class AdminTokenRejected extends Error {
  constructor() {
    super("invalid-admin-token");
  }
}

/** Metrics token missing or wrong: 401 {"message": "invalid-metrics-token"} (the error handler's answer). */
export class MetricsTokenRejected extends Error {
  constructor() {
    super("invalid-metrics-token");
  }
}

export function createOffersServices(deps: OffersAppDeps): OffersServices {
  const clock = deps.clock ?? systemClock;
  const db = deps.database.db;
  const box = new SecretBox(deps.secretKey, deps.previousSecretKey);
  const games = new GameDirectory(db, box, { clock });
  const engine = deps.engine ?? new OffersEngine({ db, clock, onError: (e) => deps.logger?.error({ err: e }, "work after a committed offer change failed") });
  const tokens = new OneTimeTokens(db, games, clock);
  const webhooks = new WebhookEndpoints(db, box, clock, deps.webhookAddressPolicy ?? { allowPrivate: true });
  return {
    engine,
    games,
    tokens,
    webhooks,
    box,
    rateLimits: new RateLimitSettings(db, { clientPerMinute: deps.rateLimit?.clientPerMinute ?? 0, serverPerMinute: deps.rateLimit?.serverPerMinute ?? 0 }),
    clock,
    deps,
    authenticateJwt: async (request) => {
      try {
        return await verifyGameJwt(extractJwt(request.headers), (gameId) => games.findGameWithKeys(gameId), clock.now());
      } catch (error) {
        if (error instanceof JwtError) jwtRejectionsTotal.inc({ code: error.code });
        throw error;
      }
    },
    authenticateApiKey: async (request) => {
      const clientHeader = request.headers["x-client-id"];
      const apiKey = request.headers["x-api-key"];
      const clientId = typeof clientHeader === "string" ? clientHeader : undefined;
      const gameId = await games.authenticateApiKey(clientId, typeof apiKey === "string" ? apiKey : undefined);
      if (!gameId || clientId === undefined) throw new ApiKeyRejected();
      return { gameId, clientId };
    },
  };
}
