/**
 * The admin API of a player's timeline (the portal's support player page; Bearer OFFERS_ADMIN_TOKEN, the
 * environment by x-offers-environment): one chronological list of what happened to the player.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { OffersEngine } from "../../engine";
import * as S from "../../contract";
import { adminAuth, adminEnvironment } from "../plugins/auth";
import { errorResponses, securityOf } from "../route-docs";

const PlayerParams = z.object({ gameId: S.Identifier, playerId: S.ExternalId });

export const adminTimelineRoutes: FastifyPluginAsyncZod<{ engine: OffersEngine; adminToken: string }> = async (app, { engine, adminToken }) => {
  app.addHook("onRequest", adminAuth(adminToken));
  app.addHook("preHandler", adminEnvironment());

  app.get(
    "/admin/games/:gameId/players/:playerId/timeline",
    {
      schema: {
        headers: S.AdminEnvironmentHeader,
        tags: ["admin"],
        security: securityOf.admin,
        operationId: "adminPlayerTimeline",
        summary: "A player's timeline, newest first",
        description:
          "Offer transitions (with the cause: the definition's rule and its version, a game server's assignment, a claim, expiry, support), " +
          "rewards granted (source, who granted and approved, why), their webhook deliveries with every attempt, and support grants requested " +
          "and decided, in one list ordered by time. `kinds` keeps some kinds; `next` pages to older entries.",
        params: PlayerParams,
        querystring: S.TimelineQuery,
        response: { 200: S.TimelinePage, ...errorResponses("admin", { codes: ["player-not-found", "invalid-cursor"], body: false }) },
      },
    },
    async (request) => engine.playerTimeline(request.params.gameId, request.params.playerId, request.query),
  );
};
