/** The admin API for the portal (Bearer OFFERS_ADMIN_TOKEN, checked by this plugin's onRequest hook), including a watch stream. */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { findPlayers, listGames, playerState } from "../../admin";
import type { OffersEngine } from "../../engine";
import { OffersError } from "../../errors";
import * as S from "../../contract";
import { AdminGame, AdminPlayerState, AdminPlayerSummary } from "../../contract";
import type { SseHub } from "../../sse/hub";
import { openStream } from "../../sse/transport/http-stream";
import { adminAuth, adminEnvironment } from "../plugins/auth";
import { errorResponses, securityOf } from "../route-docs";

export interface AdminRoutesOptions {
  engine: OffersEngine;
  /** Presence and the watch stream of a player. */
  hub: Pick<SseHub, "isOnline" | "watch">;
  adminToken: string;
}

export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (app, { engine, hub, adminToken }) => {
  app.addHook("onRequest", adminAuth(adminToken));
  app.addHook("preHandler", adminEnvironment());
  const tags = ["admin"];
  const security = securityOf.admin;
  const PlayerParams = z.object({ gameId: z.string().min(1).max(200), playerId: z.string().min(1).max(200) });

  app.get(
    "/admin/games",
    { schema: { headers: S.AdminEnvironmentHeader, tags, security, operationId: "adminListGames", summary: "Games", response: { 200: z.object({ games: z.array(AdminGame) }), ...errorResponses("admin", { body: false }) } } },
    async (request) => ({ games: await listGames(engine.db, request.offersEnvironment) }),
  );

  app.get(
    "/admin/games/:gameId/players",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminFindPlayers",
        summary: "Find players by id or username",
        params: z.object({ gameId: z.string().min(1).max(200) }),
        querystring: S.PlayerSearchQuery,
        response: { 200: z.object({ players: z.array(AdminPlayerSummary) }), ...errorResponses("admin", { body: false }) },
      },
    },
    async (request) => ({ players: await findPlayers(engine.db, request.params.gameId, request.query.q, request.query.limit) }),
  );

  app.get(
    "/admin/games/:gameId/players/:playerId",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminGetPlayer",
        summary: "A player's whole state",
        params: PlayerParams,
        response: { 200: AdminPlayerState, ...errorResponses("admin", { codes: ["player-not-found"], body: false }) },
      },
    },
    async (request) => {
      const key = request.params;
      const state = await playerState(engine, key.gameId, key.playerId, await hub.isOnline(key));
      if (!state) throw new OffersError("player-not-found", key.playerId);
      return state;
    },
  );

  app.get(
    "/admin/games/:gameId/players/:playerId/watch",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminWatchPlayer",
        summary: "Watch a player's events (text/event-stream)",
        description:
          "Every offer transition (event type = surfaced, viewed, claimable, claimed, expired, queued, and support's revoked and extended; data = the transition with the offer) " +
          "and `connection` events (opened, closed). Does not take the player's connection.",
        params: PlayerParams,
        response: {
          200: {
            description: "The watch stream, open until the client leaves.",
            content: { "text/event-stream": { schema: z.string().describe("Server-sent events: `presence` first (data `{connected}`), then offer transitions and `connection` events.") } },
          },
          ...errorResponses("admin", { body: false }),
        },
      },
    },
    async (request, reply) => {
      const stream = openStream(reply);
      const watching = hub.watch({ key: request.params, sink: stream.sink });
      // Also when the client leaves while the watcher is still being set up.
      stream.onClose(() => void watching.then((watcher) => watcher.close("client closed"), () => {}));
      await watching;
      // Say at once whether the player is online, so a new watcher need not wait for a change.
      const connected = await hub.isOnline(request.params);
      (await watching).send("presence", { connected });
    },
  );
};
