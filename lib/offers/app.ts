/**
 * Fastify app of the offers service. Dependencies come in (database, clock, secret key, admin
 * token, logger) so tests drive it with inject() on a real database. Routes are thin: zod parses,
 * a domain module decides, the result maps to HTTP. The OpenAPI document is generated from the
 * same zod schemas (GET /v1/openapi.json, docs page at /v1/docs).
 */
import { randomUUID } from "node:crypto";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import fastifyCors from "@fastify/cors";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Logger } from "pino";

import { isDatabaseUnavailable } from "../db";
import type { Clock } from "./clock";
import { systemClock } from "./clock";
import type { OffersDatabaseHandle } from "./db";
import { OffersEngine, coreOf, type PlayerView } from "./engine";
import { OffersError } from "./errors";
import { GameDirectory } from "./games";
import { extractJwt, JwtError, verifyGameJwt } from "./jwt";
import { SecretBox } from "./secret-box";
import { OneTimeTokens } from "./tokens";
import * as S from "./schemas";

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
  /** An engine built elsewhere (e.g. with listeners already attached); default: one over database.db. */
  engine?: OffersEngine;
  /** Extra routes registered under /v1 with the same services (event stream, admin API). */
  extend?: (app: FastifyInstance, services: OffersServices) => void | Promise<void>;
  /**
   * Parts that can degrade without making the service unusable (the event bus), reported by /health
   * and /ready: a degraded one sets `status: "degraded"` and leaves the answer 200.
   */
  healthChecks?: () => Record<string, "ok" | "degraded">;
}

export interface OffersServices {
  engine: OffersEngine;
  games: GameDirectory;
  tokens: OneTimeTokens;
  clock: Clock;
  deps: OffersAppDeps;
  /** Verifies the request's game JWT; throws JwtError. */
  authenticateJwt(request: FastifyRequest): Promise<{ gameId: string; playerId: string; exp: number }>;
  /** Verifies x-client-id + x-api-key; throws ApiKeyRejected. */
  authenticateApiKey(request: FastifyRequest): Promise<{ gameId: string }>;
}

/** API key refused: 401 with the bare JSON string "invalid-api-key". */
export class ApiKeyRejected extends Error {
  constructor() {
    super("invalid-api-key");
  }
}

declare module "fastify" {
  interface FastifyRequest {
    /** Who is calling, set by the route's onRequest authentication. */
    offersCaller?: { gameId: string; playerId?: string };
  }
}

const CLAIM_MESSAGE = "Rewards claimed";

function issuesOf(error: FastifyError): S.InvalidRequest["issues"] {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return error.validation.map((v) => ({
      path: v.instancePath
        .split("/")
        .filter(Boolean)
        .map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
      message: v.message ?? "invalid",
    }));
  }
  return [{ path: [], message: error.message }];
}

function sendApiKeyError(reply: FastifyReply) {
  return reply.code(401).type("application/json; charset=utf-8").send(JSON.stringify("invalid-api-key"));
}

export async function buildOffersApp(deps: OffersAppDeps): Promise<FastifyInstance> {
  const clock = deps.clock ?? systemClock;
  const db = deps.database.db;
  const box = new SecretBox(deps.secretKey, deps.previousSecretKey);
  const games = new GameDirectory(db, box, { clock });
  const engine = deps.engine ?? new OffersEngine({ db, clock, onError: (e) => deps.logger?.error({ err: e }, "work after a committed offer change failed") });
  const tokens = new OneTimeTokens(db, games, clock);

  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    bodyLimit: deps.maxBodyBytes ?? 64 * 1024,
    requestIdHeader: "x-request-id",
    genReqId: () => randomUUID(),
    return503OnClosing: true,
    // Path parameters are identifiers of up to 200 characters, up to 3 bytes each once percent-encoded.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 600 },
    // The router refuses a path that is not percent-encoded UTF-8 (e.g. %ED%A0%80, a lone surrogate)
    // or a parameter over maxParamLength: the same 400 as any other bad input.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      if (error.code === "FST_ERR_BAD_URL" || error.code === "FST_ERR_MAX_PARAM_LENGTH") {
        const message = error.code === "FST_ERR_BAD_URL" ? "the path is not valid percent-encoded UTF-8" : "a path parameter is too long";
        return reply.code(400).send({ message: "invalid-request", issues: [{ path: [], message }] });
      }
      request.log.error({ err: error }, "framework error");
      return reply.code(500).send({ message: "internal-error" });
    },
  });
  await app.register(fastifyCors, {
    origin: deps.corsOrigins && deps.corsOrigins.length > 0 ? deps.corsOrigins : true,
    methods: ["GET", "POST", "PUT"],
    allowedHeaders: ["authorization", "content-type", "x-game-jwt", "last-event-id", "cache-control", "x-request-id", "idempotency-key"],
    exposedHeaders: ["x-request-id", "idempotent-replayed"],
    maxAge: 600,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Every body of this API is JSON; anything else is 415 rather than a string that fails validation.
  app.removeContentTypeParser("text/plain");

  const services: OffersServices = {
    engine,
    games,
    tokens,
    clock,
    deps,
    authenticateJwt: async (request) =>
      verifyGameJwt(extractJwt(request.headers), (gameId) => games.findGameWithKeys(gameId), clock.now()),
    authenticateApiKey: async (request) => {
      const clientId = request.headers["x-client-id"];
      const apiKey = request.headers["x-api-key"];
      const gameId = await games.authenticateApiKey(
        typeof clientId === "string" ? clientId : undefined,
        typeof apiKey === "string" ? apiKey : undefined,
      );
      if (!gameId) throw new ApiKeyRejected();
      return { gameId };
    },
  };

  // Authentication runs before the body is read: an unauthenticated caller learns nothing about its body.
  const jwtAuth = async (request: FastifyRequest) => {
    const { gameId, playerId } = await services.authenticateJwt(request);
    request.offersCaller = { gameId, playerId };
  };
  const apiKeyAuth = async (request: FastifyRequest) => {
    request.offersCaller = await services.authenticateApiKey(request);
  };
  const caller = (request: FastifyRequest) => request.offersCaller!;

  /** A claim with the request's Idempotency-Key (validated by the route's header schema); marks a replayed answer. */
  const claimWithKey = async (
    request: FastifyRequest,
    reply: FastifyReply,
    gameId: string,
    playerId: string,
    body: S.ClientClaimRequest,
    endpoint: "client" | "sdk",
  ) => {
    const key = request.headers["idempotency-key"];
    const outcome = await engine.claimOnce(gameId, playerId, body.kind, body.instanceId, typeof key === "string" ? { key, endpoint } : undefined);
    if (outcome.replayed) reply.header("idempotent-replayed", "true");
    return outcome;
  };

  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  // One rule at the boundary for every string of every route (the stream and admin routes too):
  // before the route's schema runs, every string and object key of the body, the query and the path
  // must be text PostgreSQL can store unchanged (no U+0000, no lone surrogate), and every path
  // parameter, which in this API always names something, must be an identifier. Headers reach
  // storage only under rules of their own: the client id and the JWT's iss and sub are identifiers,
  // an Idempotency-Key is printable ASCII (its route schema).
  app.addHook("preValidation", async (request, reply) => {
    const issues: S.ValidationIssue[] = [];
    const params = (request.params ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(params)) {
      // "*" is the wildcard of the docs page's static files, not a name.
      if (name !== "*" && typeof value === "string" && !S.isIdentifier(value)) issues.push({ path: [name], message: S.IDENTIFIER_RULE });
    }
    issues.push(...S.findUnstorableText(request.query), ...S.findUnstorableText(request.body));
    if (issues.length > 0) return reply.code(400).send({ message: "invalid-request", issues });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ message: "not-found" });
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof JwtError) return reply.code(error.status).send({ message: error.code });
    if (error instanceof ApiKeyRejected) return sendApiKeyError(reply);
    if (error instanceof OffersError) {
      // secret-key-mismatch: this instance cannot open stored API keys; an operator must fix OFFERS_SECRET_KEY.
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      return reply.code(error.status).send({ message: error.code });
    }
    if (error.validation || hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send({ message: "invalid-request", issues: issuesOf(error) });
    }
    switch (error.code) {
      case "FST_ERR_CTP_INVALID_JSON_BODY":
      case "FST_ERR_CTP_EMPTY_JSON_BODY":
      case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
        return reply.code(400).send({ message: "invalid-request", issues: [{ path: [], message: error.message }] });
      case "FST_ERR_CTP_BODY_TOO_LARGE":
        return reply.code(413).send({ message: "payload-too-large" });
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
        return reply.code(415).send({ message: "unsupported-media-type" });
    }
    if (error instanceof SyntaxError) {
      return reply.code(400).send({ message: "invalid-request", issues: [{ path: [], message: error.message }] });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, "database unavailable");
      return reply.code(503).header("retry-after", "2").send({ message: "database-unavailable" });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ message: error.code ?? "bad-request" });
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send({ message: "internal-error" });
  });

  // ---- probes (outside /v1) ----
  const probe = app.withTypeProvider<ZodTypeProvider>();
  const pingDatabase = async (): Promise<boolean> => {
    try {
      await deps.database.ping();
      return true;
    } catch {
      return false;
    }
  };
  const degradable = () => {
    const parts = deps.healthChecks?.() ?? {};
    return { parts, status: Object.values(parts).includes("degraded") ? "degraded" : "ok" };
  };
  probe.get("/health", { schema: { hide: true } }, async (request, reply) => {
    const { parts, status } = degradable();
    if (await pingDatabase()) return reply.send({ status, database: "ok", ...parts });
    return reply.code(503).send({ status: "unavailable", database: "unavailable", ...parts, message: "database-unavailable" });
  });
  probe.get("/ready", { schema: { hide: true } }, async (request, reply) => {
    const { parts, status } = degradable();
    if (await pingDatabase()) return reply.send({ status, database: "ok", ...parts });
    return reply.code(503).send({ status: "unavailable", database: "unavailable", ...parts, message: "database-unavailable" });
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Offers and Rewards API",
        version: "1.0.0",
        description: "Personalized offers, exactly-once reward claims and one-time dashboard tokens. JWT (HS256, signed with the game's API key) for game clients; API key + client id for game servers.",
      },
      components: {
        securitySchemes: {
          gameJwt: { type: "apiKey", in: "header", name: "x-game-jwt" },
          bearerJwt: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
          apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
          clientId: { type: "apiKey", in: "header", name: "x-client-id" },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  const jwtSecurity: Array<Record<string, string[]>> = [{ gameJwt: [] }, { bearerJwt: [] }];
  const apiKeySecurity: Array<Record<string, string[]>> = [{ apiKey: [], clientId: [] }];

  await app.register(
    async (v1) => {
      const r = v1.withTypeProvider<ZodTypeProvider>();

      r.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());

      r.post(
        "/auth/one_time_token/generate",
        {
          onRequest: jwtAuth,
          schema: { tags: ["client"], summary: "One-time dashboard token (5 minutes, single use)", security: jwtSecurity, body: S.OneTimeTokenGenerateRequest, response: { 200: S.OneTimeTokenGenerateResponse } },
        },
        async (request) => {
          const { gameId, playerId } = caller(request);
          return { token: await tokens.generate(gameId, playerId!) };
        },
      );

      r.post(
        "/client/player/referrals",
        {
          onRequest: jwtAuth,
          schema: { tags: ["client"], summary: "The player's referrals (as referrer), newest first; claim a claimable one with kind referral", security: jwtSecurity, body: S.ClientReferralsRequest, response: { 200: S.ClientReferralsResponse } },
        },
        async (request) => {
          const { gameId, playerId } = caller(request);
          return { referrals: await engine.referralsOf(gameId, playerId!) };
        },
      );

      r.post(
        "/auth/one_time_token/redeem",
        {
          schema: { tags: ["dashboard"], summary: "Redeem a one-time token for a 15-minute access JWT", body: S.OneTimeTokenRedeemRequest, response: { 200: S.OneTimeTokenRedeemResponse } },
        },
        async (request) => tokens.redeem(request.body.token, request.body.gameId),
      );

      const playerOf = (view: PlayerView): S.Player => ({ snapshot: coreOf(view.snapshot), data: view.playerData });

      r.post(
        "/client/player/campaigns",
        {
          onRequest: jwtAuth,
          schema: { tags: ["client"], summary: "The player's offers, snapshot and currency data", security: jwtSecurity, body: S.ClientCampaignsRequest.optional(), response: { 200: S.ClientCampaignsResponse } },
        },
        async (request) => {
          const { gameId, playerId } = caller(request);
          const view = await engine.fetchCampaigns(gameId, playerId!, { viewing: request.body?.viewingCampaigns === true, includeQueued: false });
          return { player: playerOf(view), offers: view.offers, snapshot: view.snapshot, playerData: view.playerData };
        },
      );

      r.post(
        "/player/campaigns/refresh",
        {
          onRequest: apiKeyAuth,
          schema: { tags: ["server"], summary: "A player's offers (all states), snapshot, currency data and a one-time token", security: apiKeySecurity, body: S.ServerCampaignsRefreshRequest, response: { 200: S.ServerCampaignsRefreshResponse } },
        },
        async (request) => {
          const { gameId } = caller(request);
          const { playerId, viewingCampaigns } = request.body;
          const view = await engine.fetchCampaigns(gameId, playerId, { viewing: viewingCampaigns === true, includeQueued: true });
          const token = await tokens.generate(gameId, playerId);
          return { player: playerOf(view), offers: view.offers, token, gameId, playerSnapshot: view.snapshot, playerData: view.playerData };
        },
      );

      r.post(
        "/client/reward/claim",
        {
          onRequest: jwtAuth,
          schema: {
            tags: ["client"],
            summary: "Claim the rewards of a claimable offer or referral",
            security: jwtSecurity,
            headers: S.ClaimHeaders,
            body: S.ClientClaimRequest,
            response: { 200: S.ClientClaimResponse },
          },
        },
        async (request, reply) => {
          const { gameId, playerId } = caller(request);
          await claimWithKey(request, reply, gameId, playerId!, request.body, "client");
          return { message: CLAIM_MESSAGE };
        },
      );

      r.post(
        "/reward/sdk/claim",
        {
          onRequest: apiKeyAuth,
          schema: {
            tags: ["server"],
            summary: "Claim for a player; answers the rewards distributed",
            security: apiKeySecurity,
            headers: S.ClaimHeaders,
            body: S.ServerClaimRequest,
            response: { 200: S.ServerClaimResponse },
          },
        },
        async (request, reply) => {
          const { gameId } = caller(request);
          const { rewards } = await claimWithKey(request, reply, gameId, request.body.playerId, request.body, "sdk");
          return { message: CLAIM_MESSAGE, rewards };
        },
      );

      r.put(
        "/offers/definitions/:offerId",
        {
          onRequest: apiKeyAuth,
          schema: { tags: ["server"], summary: "Create or replace an offer definition", security: apiKeySecurity, params: S.OfferDefinitionParams, body: S.OfferDefinitionInput, response: { 200: S.OfferDefinition } },
        },
        async (request) => engine.upsertDefinition(caller(request).gameId, request.params.offerId, request.body),
      );

      r.post(
        "/player/offers/assign",
        {
          onRequest: apiKeyAuth,
          schema: { tags: ["server"], summary: "Assign an offer definition to a player (surfaced, or inQueue when the slots are full)", security: apiKeySecurity, body: S.AssignOfferRequest, response: { 200: S.Offer } },
        },
        async (request) => engine.assignOffer(caller(request).gameId, request.body.playerId, request.body.offerId),
      );

      r.post(
        "/player/snapshot",
        {
          onRequest: apiKeyAuth,
          schema: { tags: ["server"], summary: "Upsert a player's snapshot; recomputes offer trackers", security: apiKeySecurity, body: S.SnapshotPushRequest, response: { 200: S.SnapshotPushResponse } },
        },
        async (request) => engine.pushSnapshot(caller(request).gameId, request.body),
      );

      r.post(
        "/referrals",
        {
          onRequest: apiKeyAuth,
          schema: { tags: ["server"], summary: "Record a referral; the referrer claims it with kind referral", security: apiKeySecurity, body: S.ReferralCreateRequest, response: { 200: S.Referral } },
        },
        async (request) => engine.createReferral(caller(request).gameId, request.body),
      );

      r.put(
        "/currencies/:currencyId",
        {
          onRequest: apiKeyAuth,
          schema: { tags: ["server"], summary: "Create or replace a currency of the game (name and image shown in playerData)", security: apiKeySecurity, params: S.CurrencyParams, body: S.CurrencyInput, response: { 200: S.Currency } },
        },
        async (request) => {
          const { gameId } = caller(request);
          const currency = await games.upsertCurrency(gameId, request.params.currencyId, request.body);
          engine.invalidateGameSettings(gameId);
          return currency;
        },
      );

      if (deps.extend) await deps.extend(v1, services);
    },
    { prefix: "/v1" },
  );

  await app.register(fastifySwaggerUi, { routePrefix: "/v1/docs" });

  // Used by tests and by main.ts (sweep timer) without rebuilding the services.
  app.decorate("offers", services);
  return app as unknown as FastifyInstance;
}

declare module "fastify" {
  interface FastifyInstance {
    offers: OffersServices;
  }
}
