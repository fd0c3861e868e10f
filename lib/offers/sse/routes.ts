/**
 * HTTP side of the event stream and the admin API: GET /v1/sse/connect for players,
 * /v1/admin/... for the portal (Bearer OFFERS_ADMIN_TOKEN), including a watch stream.
 */
import { timingSafeEqual, createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { JwtError, type VerifiedJwt } from "../jwt";
import { OffersError } from "../errors";
import type { OffersEngine } from "../engine";
import { findPlayers, listGames, playerState } from "../admin";
import { AdminGame, AdminPlayerState } from "../schemas";
import { REPLACED_EVENT_ID, type SseHub, type SseSink } from "./hub";

export interface StreamRoutesOptions {
  hub: SseHub;
  engine: OffersEngine;
  /** Verifies the request's JWT; throws JwtError. */
  verifyJwt(request: FastifyRequest): Promise<VerifiedJwt>;
  adminToken: string;
}

const streamHeaders = {
  // Exactly the MIME type (the stream is UTF-8 by definition): clients that compare it as a string,
  // like fetch-event-source's documented onopen, would otherwise treat every stream as an error.
  "Content-Type": "text/event-stream",
  // no-transform: proxies (and Next) must not compress or buffer the stream.
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
};

/** Takes over the raw response for a long-lived stream; the hub writes through the sink. */
function openStream(reply: FastifyReply): { sink: SseSink; onClose(listener: () => void): void } {
  reply.hijack();
  const raw = reply.raw;
  // Headers set by hooks (CORS, request id) are not sent for a hijacked reply unless passed on here.
  const hookHeaders = Object.fromEntries(
    Object.entries(reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined),
  );
  raw.writeHead(200, { ...hookHeaders, "x-request-id": reply.request.id, ...streamHeaders });
  raw.socket?.setNoDelay(true);
  return {
    sink: {
      write: (chunk, flushed) => void raw.write(chunk, flushed),
      end: (finished) => void raw.end(finished),
      // A reset, not a FIN: the FIN would wait behind the unread data in the kernel, keeping it for minutes.
      destroy: () => void (raw.socket && !raw.socket.destroyed ? raw.socket.resetAndDestroy() : raw.destroy()),
      socket: raw.socket ?? undefined,
    },
    onClose: (listener) => raw.on("close", listener),
  };
}

function headerText(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
}

function parseLastEventId(value: string | string[] | undefined): number | null {
  const text = headerText(value);
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

export function registerStreamRoutes(app: FastifyInstance, options: StreamRoutesOptions): void {
  const { hub, engine } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const adminDigest = digest(options.adminToken);

  typed.get(
    "/sse/connect",
    {
      schema: {
        tags: ["client"],
        summary: "Event stream of the player's real-time offers (text/event-stream)",
        description:
          "Bearer JWT. Events: `offer_surfaced` with `id:` (per-player sequence) and data `{offer}`; `:heartbeat` comments. " +
          "Send `Last-Event-ID` to receive what was missed. A newer connection of the same player replaces this one: " +
          "the older gets the comment `:replaced` and the event `replaced` (id `replaced`, data `{\"message\":\"stream-replaced\"}`) and is closed. " +
          "A reconnect with `Last-Event-ID: replaced` is answered 409 `{\"message\":\"stream-replaced\"}`, so a standard EventSource stops " +
          "instead of taking the stream back; open a new one (without Last-Event-ID) to take it over.",
        headers: z.object({ "last-event-id": z.string().optional() }).loose(),
      },
    },
    async (request, reply) => {
      let jwt: VerifiedJwt;
      try {
        jwt = await options.verifyJwt(request);
      } catch (error) {
        if (error instanceof JwtError) return reply.code(error.status).send({ message: error.code });
        throw error;
      }
      // The automatic reconnect of a displaced client: a 4xx other than 429 ends it (EventSource fails
      // on any non-200; fetch-event-source's documented onopen treats such a 4xx as fatal).
      if (headerText(request.headers["last-event-id"]) === REPLACED_EVENT_ID) {
        throw new OffersError("stream-replaced");
      }
      const stream = openStream(reply);
      let gone = false;
      let connection: Awaited<ReturnType<SseHub["connect"]>> | undefined;
      stream.onClose(() => {
        gone = true;
        void connection?.close("client closed");
      });
      try {
        connection = await hub.connect({
          key: { gameId: jwt.gameId, playerId: jwt.playerId },
          sink: stream.sink,
          expiresAtMs: jwt.exp * 1000,
          lastEventId: parseLastEventId(request.headers["last-event-id"]),
        });
        if (gone) await connection.close("client closed");
      } catch (error) {
        // The hub has closed the stream; the client reconnects with backoff.
        request.log.warn({ err: error }, "event stream could not start");
      }
    },
  );

  app.register(async (admin) => {
    admin.addHook("onRequest", async (request, reply) => {
      const header = request.headers.authorization ?? "";
      const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? "";
      if (!token || !timingSafeEqual(digest(token), adminDigest)) {
        return reply.code(401).send({ message: "invalid-admin-token" });
      }
    });
    const r = admin.withTypeProvider<ZodTypeProvider>();
    const tags = ["admin"];
    const PlayerParams = z.object({ gameId: z.string().min(1).max(200), playerId: z.string().min(1).max(200) });

    r.get("/admin/games", { schema: { tags, summary: "Games", response: { 200: z.object({ games: z.array(AdminGame) }) } } }, async () => ({
      games: await listGames(engine.db),
    }));

    r.get(
      "/admin/games/:gameId/players",
      {
        schema: {
          tags,
          summary: "Find players by id or username",
          params: z.object({ gameId: z.string().min(1).max(200) }),
          querystring: z.object({ q: z.string().max(200).default(""), limit: z.coerce.number().int().min(1).max(100).default(20) }),
        },
      },
      async (request) => ({ players: await findPlayers(engine.db, request.params.gameId, request.query.q, request.query.limit) }),
    );

    r.get(
      "/admin/games/:gameId/players/:playerId",
      { schema: { tags, summary: "A player's whole state", params: PlayerParams, response: { 200: AdminPlayerState, 404: z.object({ message: z.string() }) } } },
      async (request, reply) => {
        const key = request.params;
        const state = await playerState(engine, key.gameId, key.playerId, await hub.isOnline(key));
        if (!state) return reply.code(404).send({ message: "player-not-found" });
        return state;
      },
    );

    r.get(
      "/admin/games/:gameId/players/:playerId/watch",
      {
        schema: {
          tags,
          summary: "Watch a player's events (text/event-stream)",
          description:
            "Every offer transition (event type = surfaced, viewed, claimable, claimed, expired, queued; data = the transition with the offer) " +
            "and `connection` events (opened, closed). Does not take the player's connection.",
          params: PlayerParams,
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
  });
}
