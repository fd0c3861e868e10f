/**
 * The admin API of a game environment's request budgets (Bearer OFFERS_ADMIN_TOKEN; the environment
 * by x-offers-environment): what applies, and the game's own values. Running instances apply a
 * change within 5 seconds (../../rate-limits).
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { EffectiveRateLimits, RateLimitSettings } from "../../rate-limits";
import * as S from "../../contract";
import { adminAuth, adminEnvironment } from "../plugins/auth";
import { errorResponses, securityOf } from "../route-docs";

const GameParams = z.object({ gameId: S.Identifier });

function toAdminRateLimits(limits: EffectiveRateLimits): S.AdminRateLimits {
  return { clientPerMinute: limits.clientPerMinute, serverPerMinute: limits.serverPerMinute, own: limits.stored, defaults: limits.defaults };
}

export const adminRateLimitRoutes: FastifyPluginAsyncZod<{ settings: RateLimitSettings; adminToken: string }> = async (app, { settings, adminToken }) => {
  app.addHook("onRequest", adminAuth(adminToken));
  app.addHook("preHandler", adminEnvironment());
  const tags = ["admin"];
  const security = securityOf.admin;

  app.get(
    "/admin/games/:gameId/rate-limits",
    {
      schema: {
        headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminGetRateLimits",
        summary: "The game environment's request budgets",
        params: GameParams,
        response: { 200: S.AdminRateLimits, ...errorResponses("admin", { codes: ["game-not-found"], body: false }) },
      },
    },
    async (request) => toAdminRateLimits(await settings.effective(request.params.gameId)),
  );

  app.put(
    "/admin/games/:gameId/rate-limits",
    {
      schema: {
        headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminSetRateLimits",
        summary: "Set the game environment's request budgets",
        description: "A number sets the game's own budget (requests per minute; 0 = unlimited), null goes back to the service's default, an absent field stays. Every instance applies it within 5 seconds.",
        params: GameParams,
        body: S.AdminRateLimitsUpdate,
        response: { 200: S.AdminRateLimits, ...errorResponses("admin", { codes: ["game-not-found", "invalid-game-settings"], body: true }) },
      },
    },
    async (request) => toAdminRateLimits(await settings.set(request.params.gameId, request.body)),
  );
};
