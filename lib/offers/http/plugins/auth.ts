/**
 * Authentication of each audience as an onRequest hook, added by that audience's route plugin
 * (scoped to it). It runs before the body is read: an unauthenticated caller learns nothing about
 * its body. Refusals are thrown and answered by the error handler.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import { AdminTokenRejected, type OffersServices } from "../services";

declare module "fastify" {
  interface FastifyRequest {
    /** Who is calling, set by the plugin's onRequest authentication. */
    offersCaller?: { gameId: string; playerId?: string; via?: "client" | "dashboard" };
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

/** The portal: Bearer OFFERS_ADMIN_TOKEN, compared in constant time. */
export function adminAuth(adminToken: string): onRequestAsyncHookHandler {
  const adminDigest = digest(adminToken);
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? "";
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? "";
    if (!token || !timingSafeEqual(digest(token), adminDigest)) throw new AdminTokenRejected();
  };
}

/** The caller the plugin's hook authenticated. */
export const caller = (request: FastifyRequest) => request.offersCaller!;
