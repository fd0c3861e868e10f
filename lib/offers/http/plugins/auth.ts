/**
 * Authentication of each audience as an onRequest hook, added by that audience's route plugin
 * (scoped to it). It runs before the body is read: an unauthenticated caller learns nothing about
 * its body. Refusals are thrown and answered by the error handler.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest, onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from "fastify";
import { Environment, tenantOf } from "../../environments";
import { CLIENT_ADDRESS_HEADER } from "../../contract";
import { OffersError } from "../../errors";
import { AdminTokenRejected, ApiKeyRejected, type OffersServices } from "../services";

declare module "fastify" {
  interface FastifyRequest {
    /** Who is calling, set by the plugin's onRequest authentication. */
    offersCaller?: { gameId: string; playerId?: string; via?: "client" | "dashboard"; /** The game server's client id (API-key routes). */ clientId?: string };
  }
}

/** Game clients: a game JWT (x-game-jwt or Bearer). */
export function jwtAuth(services: OffersServices): onRequestAsyncHookHandler {
  return async (request) => {
    const { gameId, playerId, via } = await services.authenticateJwt(request);
    request.offersCaller = { gameId, playerId, via };
  };
}

/** Game servers: x-client-id + x-api-key. */
export function apiKeyAuth(services: OffersServices): onRequestAsyncHookHandler {
  return async (request) => {
    request.offersCaller = await services.authenticateApiKey(request);
  };
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether a request carries the portal's Bearer OFFERS_ADMIN_TOKEN, compared in constant time. */
function portalCredential(adminToken: string): (request: FastifyRequest) => boolean {
  const adminDigest = digest(adminToken);
  return (request) => {
    const header = request.headers.authorization ?? "";
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? "";
    return token !== "" && timingSafeEqual(digest(token), adminDigest);
  };
}

/** The portal: Bearer OFFERS_ADMIN_TOKEN. */
export function adminAuth(adminToken: string): onRequestAsyncHookHandler {
  const fromPortal = portalCredential(adminToken);
  return async (request: FastifyRequest) => {
    if (!fromPortal(request)) throw new AdminTokenRejected();
  };
}

declare module "fastify" {
  interface FastifyRequest {
    /** The player's address the portal relayed (./auth relayedClientAddress); absent: the peer's address counts. */
    offersClientAddress?: string;
  }
}

/**
 * The public redeem route, which the portal's rewards page calls from its server for every player:
 * a request with the portal's credential may name the player's address (CLIENT_ADDRESS_HEADER), which
 * the rate limiter then counts instead of the portal's own. Anyone else's header is ignored (it is a
 * header anyone can set), and a relayed address with a wrong credential is refused rather than
 * counted at the caller's address, so a portal with a stale token is noticed instead of locking its
 * players out together. A credential without the header changes nothing (the route takes none).
 * The header's format is checked by the route's schema, before the limiter reads it.
 */
export function relayedClientAddress(adminToken: string): onRequestAsyncHookHandler {
  const fromPortal = portalCredential(adminToken);
  return async (request: FastifyRequest) => {
    const address = request.headers[CLIENT_ADDRESS_HEADER];
    // Nothing relayed, or relayed without a credential: the peer's address counts.
    if (address === undefined || request.headers.authorization === undefined) return;
    if (!fromPortal(request)) throw new AdminTokenRejected();
    if (typeof address === "string") request.offersClientAddress = address;
  };
}

/** Header of admin calls naming the environment of the game in the path (default live). */
export const ADMIN_ENVIRONMENT_HEADER = "x-offers-environment";

declare module "fastify" {
  interface FastifyRequest {
    /** The environment an admin call is about (./auth adminEnvironment). */
    offersEnvironment?: Environment;
  }
}

/**
 * Admin calls name a game by its public id and its environment by a header: this hook (preHandler,
 * after the path is validated) turns the path's gameId into the environment's tenant, so every admin
 * handler reads and writes that environment only (../../environments).
 */
export function adminEnvironment(): preHandlerAsyncHookHandler {
  return async (request) => {
    const raw = request.headers[ADMIN_ENVIRONMENT_HEADER];
    const parsed = Environment.safeParse(raw ?? "live");
    if (!parsed.success) throw new OffersError("invalid-environment", `${ADMIN_ENVIRONMENT_HEADER}: live or test`);
    request.offersEnvironment = parsed.data;
    const params = request.params as { gameId?: string } | undefined;
    if (params && typeof params.gameId === "string") params.gameId = tenantOf(params.gameId, parsed.data);
  };
}

/** The caller the plugin's hook authenticated. */
export const caller = (request: FastifyRequest) => request.offersCaller!;

/** The game server apiKeyAuth authenticated: its game environment and its client id. */
export function serverCaller(request: FastifyRequest): { gameId: string; clientId: string } {
  const { gameId, clientId } = caller(request);
  // Only a route without apiKeyAuth reaches this; refuse rather than act for nobody.
  if (clientId === undefined) throw new ApiKeyRejected();
  return { gameId, clientId };
}
