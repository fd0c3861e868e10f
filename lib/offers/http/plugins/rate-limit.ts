/**
 * Rate limits with @fastify/rate-limit, checked after authentication (a preHandler), so the key is
 * the verified caller and an unauthenticated request never spends a game's budget:
 *   - game clients (JWT routes, the event stream, the rewards page's access JWT): each player of a
 *     game environment has a budget of its own, `client:<tenant>:<playerId>`;
 *   - game servers (API-key routes): one budget per game environment, `server:<tenant>`;
 *   - the one public route (redeeming a one-time token): per client address, at the client budget;
 *     the portal, which redeems for every player from its server, names the player's address.
 * The tenant is the game environment (../../environments), so live and test never share a budget.
 * Which routes are limited is what they document: exactly the routes whose responses include 429
 * (../route-docs.ts gives it to the game-client, game-server and public audiences); admin routes,
 * probes and the OpenAPI document are not limited.
 * Counters live in Redis when one is given (every instance spends the same budget), in this
 * process otherwise. A counter store that fails (Redis away) lets the request through.
 * Answers over the limit: 429 {"message": "rate-limited"} with Retry-After and the
 * RateLimit-Limit / RateLimit-Remaining / RateLimit-Reset headers (IETF draft 6 style), which also
 * come with every limited answer below the limit.
 */
import fastifyRateLimit, { type RateLimitPluginOptions } from "@fastify/rate-limit";
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, preHandlerAsyncHookHandler, preHandlerHookHandler } from "fastify";
import fastifyPlugin from "fastify-plugin";
import type { Redis } from "ioredis";
import type { OpenAPIV3_1 } from "openapi-types";
import { statusOf } from "../../errors";
import type { RateLimitBudget, RateLimitSettings } from "../../rate-limits";

export interface RateLimitOptions {
  settings: RateLimitSettings;
  /** Counters shared by every instance; absent = in this process. */
  redis?: Redis;
  /** Prefix of the counters' Redis keys (several deployments or test runs can share one Redis). */
  keyPrefix?: string;
}

/** Over the limit: 429 {"message": "rate-limited"} (the error handler's answer). */
export class RateLimited extends Error {
  constructor() {
    super("rate-limited");
  }
}

/** The window of every budget: budgets are per minute. */
const WINDOW_MS = 60_000;
/** Counters kept in this process (without Redis); past it the least recently used are dropped. */
const LOCAL_KEYS = 100_000;

/** Whose budget a request spends: its key and requests per minute (0 = unlimited; a promise until the budget is cached). */
interface Spender {
  key: string;
  limit: number | Promise<number>;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The budget this request spends, once the limiter has asked (null: none); a decoration rather than a WeakMap, which costs the collector work on every request. */
    offersSpender?: Spender | null;
  }
}

/** Every request of an unlimited budget: the limiter never runs for it, so it needs no key of its own. */
const UNLIMITED: Spender = Object.freeze({ key: "", limit: 0 });

/**
 * The address a public request is counted against: the player's, when the portal relays it with its
 * credential (../plugins/auth relayedClientAddress), else the peer's (request.ip, which believes
 * X-Forwarded-For only from OFFERS_TRUST_PROXY). An IPv4 address seen on a dual-stack socket
 * (::ffff:a.b.c.d) is the same address.
 */
function addressKeyOf(request: FastifyRequest): string {
  const address = request.offersClientAddress ?? request.ip;
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}

/** Whether a route is limited: it documents a 429. */
function isLimited(schema: { response?: unknown; hide?: boolean } | undefined): boolean {
  const response = schema?.response as Record<string, unknown> | undefined;
  return !schema?.hide && response !== undefined && String(statusOf["rate-limited"]) in response;
}

export const rateLimitPlugin = fastifyPlugin<RateLimitOptions>(
  async (app, options) => {
    const { settings } = options;
    app.decorateRequest("offersSpender", undefined);

    const readPerMinute = async (tenant: string, budget: RateLimitBudget): Promise<number> => {
      try {
        return await settings.perMinute(tenant, budget);
      } catch {
        // The database is away: the route answers for itself; the limit falls back to the default.
        return settings.defaultPerMinute(budget);
      }
    };
    const perMinute = (tenant: string, budget: RateLimitBudget): number | Promise<number> =>
      settings.cachedPerMinute(tenant, budget) ?? readPerMinute(tenant, budget);

    // The key is built only for a budget that may have a limit: the limiter never runs for an unlimited one.
    const spenderOf = (request: FastifyRequest): Spender | null => {
      if (request.offersSpender !== undefined) return request.offersSpender;
      const caller = request.offersCaller;
      const isPlayer = caller?.playerId !== undefined;
      const budget = caller ? perMinute(caller.gameId, isPlayer ? "client" : "server") : isLimited(request.routeOptions.schema) ? settings.defaultPerMinute("client") : null;
      let spender: Spender | null = null;
      if (budget === 0) spender = UNLIMITED;
      else if (budget !== null) spender = { key: caller ? (isPlayer ? `client:${caller.gameId}:${caller.playerId}` : `server:${caller.gameId}`) : `address:${addressKeyOf(request)}`, limit: budget };
      request.offersSpender = spender;
      return spender;
    };

    const pluginOptions: RateLimitPluginOptions = {
      global: false,
      hook: "preHandler",
      timeWindow: WINDOW_MS,
      enableDraftSpec: true,
      skipOnError: true,
      ...(options.redis ? { redis: options.redis, nameSpace: options.keyPrefix ?? "offers-rate-limit:" } : { cache: LOCAL_KEYS }),
      keyGenerator: (request) => spenderOf(request)!.key,
      // The hook below has resolved the budget before it runs the limiter.
      max: (request) => spenderOf(request)!.limit as number,
      errorResponseBuilder: () => new RateLimited(),
    };
    await app.register(fastifyRateLimit, pluginOptions);

    // One limiter over one store: every limited route of a caller spends the same budget.
    const limiter = app.rateLimit() as preHandlerAsyncHookHandler;

    // The limiter runs only for a budget that has a limit: no caller on a route that takes none, or
    // an unlimited budget (0), costs one lookup and no promise while the budget is cached.
    const limit = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, perMinute: number) => {
      if (perMinute === 0) done();
      else limiter.call(app, request, reply).then(() => done(), done);
    };
    const limitWhereBudgeted: preHandlerHookHandler = (request, reply, done) => {
      const spender = spenderOf(request);
      if (!spender) return done();
      if (typeof spender.limit === "number") return limit(request, reply, done, spender.limit);
      spender.limit.then((perMinute) => {
        spender.limit = perMinute;
        limit(request, reply, done, perMinute);
      }, done);
    };

    app.addHook("onRoute", (route) => {
      if (!isLimited(route.schema as { response?: unknown; hide?: boolean } | undefined)) return;
      // After the route's own preHandlers (the event stream verifies its JWT there).
      const own = route.preHandler;
      route.preHandler = [...(Array.isArray(own) ? own : own ? [own] : []), limitWhereBudgeted];
    });
  },
  { name: "offers-rate-limit" },
);

const RATE_LIMIT_HEADERS: Record<string, OpenAPIV3_1.HeaderObject> = {
  "Retry-After": { description: "Seconds until the budget is renewed.", schema: { type: "integer", minimum: 0 } },
  "RateLimit-Limit": { description: "Requests allowed per window (one minute) of this caller's budget.", schema: { type: "integer", minimum: 0 } },
  "RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer", minimum: 0 } },
  "RateLimit-Reset": { description: "Seconds until the current window ends.", schema: { type: "integer", minimum: 0 } },
};

/** Adds the Retry-After and RateLimit-* headers to every 429 response of the document. */
export function withRateLimitHeaders(document: OpenAPIV3_1.Document): OpenAPIV3_1.Document {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item ?? {})) {
      const response = (operation as OpenAPIV3_1.OperationObject | undefined)?.responses?.["429"] as OpenAPIV3_1.ResponseObject | undefined;
      if (response && typeof response === "object" && !("$ref" in response)) response.headers = { ...response.headers, ...RATE_LIMIT_HEADERS };
    }
  }
  return document;
}
