/**
 * Request budgets of the portal's signed-in callers (rate-limiter-flexible): each user has one per
 * minute, spent by every API route whoever calls it (browser session or personal API token). The
 * counters live in Redis when REDIS_URL is set (every portal instance spends the same budget), in
 * this process otherwise; while Redis is away each instance counts on its own (the insurance
 * limiter), so a Redis outage never refuses a request. lib/portal/http/route.ts spends and answers.
 */
import "server-only";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { PortalError } from "./errors";

export interface PortalRateLimitSettings {
  /** Requests per minute of each user; 0 = unlimited. */
  perMinute: number;
  /** Counters shared by every portal instance; absent = in this process. */
  redisUrl?: string;
  /** Prefix of the counters' Redis keys. */
  keyPrefix?: string;
}

/** What a caller's budget stands at after a request (the RateLimit-* headers). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window renews. */
  resetSeconds: number;
}

export interface PortalRateLimiter {
  /**
   * Spends one request of `key`'s budget: answers the state, or null when unlimited; throws
   * PortalError rate-limited (with the state) over the budget.
   */
  spend(key: string): Promise<RateLimitState | null>;
  close(): Promise<void>;
}

const WINDOW_SECONDS = 60;

/** Over the budget: 429 rate-limited, with Retry-After and RateLimit-* from `state`. */
export class RateLimitedError extends PortalError {
  static readonly brand = "RateLimitedError";
  constructor(readonly state: RateLimitState) {
    super("rate-limited", `too many requests; try again in ${state.resetSeconds} s`);
  }
}

function stateOf(result: RateLimiterRes, limit: number): RateLimitState {
  return { limit, remaining: Math.max(0, result.remainingPoints), resetSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)) };
}

export function createPortalRateLimiter(settings: PortalRateLimitSettings): PortalRateLimiter {
  const limit = settings.perMinute;
  if (limit === 0) return { spend: async () => null, close: async () => {} };
  const keyPrefix = settings.keyPrefix ?? "portal-rate-limit";
  const memory = new RateLimiterMemory({ points: limit, duration: WINDOW_SECONDS, keyPrefix });
  let redis: Redis | undefined;
  let limiter: RateLimiterAbstract = memory;
  if (settings.redisUrl) {
    // No offline queue and a short timeout: a Redis away or hung falls back to the insurance at once.
    redis = new Redis(settings.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 250, retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 2_000) });
    let warned = false;
    redis.on("error", (err: Error) => {
      if (!warned) console.warn(`[portal] redis of the rate limits unreachable, counting per instance meanwhile: ${err.message}`);
      warned = true;
    });
    redis.on("ready", () => (warned = false));
    limiter = new RateLimiterRedis({ storeClient: redis, points: limit, duration: WINDOW_SECONDS, keyPrefix, rejectIfRedisNotReady: true, insuranceLimiter: memory });
  }
  return {
    async spend(key) {
      try {
        return stateOf(await limiter.consume(key), limit);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw new RateLimitedError(stateOf(rejection, limit));
        // Neither store answered: not the caller's fault, let it through.
        return null;
      }
    },
    async close() {
      redis?.disconnect();
    },
  };
}

/** The RateLimit-* headers (and Retry-After over the budget) of a state. */
export function rateLimitHeaders(state: RateLimitState, exceeded: boolean): Record<string, string> {
  return {
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(exceeded ? 0 : state.remaining),
    "RateLimit-Reset": String(state.resetSeconds),
    ...(exceeded ? { "Retry-After": String(state.resetSeconds) } : {}),
  };
}
