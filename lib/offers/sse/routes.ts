/**
 * The player's event stream, GET /v1/sse/connect (game clients; the JWT is checked in a preHandler,
 * after the input rules, and before the rate limit, which counts the player's connects).
 */
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { VerifiedJwt } from "../jwt";
import { OffersError } from "../errors";
import { errorResponses } from "../http/route-docs";
import * as S from "../contract";
import { REPLACED_EVENT_ID, type SseHub } from "./hub";
import { openStream } from "./transport/http-stream";

export interface StreamRoutesOptions {
  hub: SseHub;
  /** Verifies the request's JWT; throws JwtError. */
  verifyJwt(request: FastifyRequest): Promise<VerifiedJwt>;
}

function headerText(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
}

function parseLastEventId(value: string | string[] | undefined): number | null {
  const text = headerText(value);
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}

export const eventStreamRoutes: FastifyPluginAsyncZod<StreamRoutesOptions> = async (app, options) => {
  const { hub } = options;
  const verified = new WeakMap<FastifyRequest, VerifiedJwt>();
  app.get(
    "/sse/connect",
    {
      schema: {
        tags: ["client"],
        // The interface: the stream's JWT comes as Authorization: Bearer (the one header an event-source client can set).
        security: [{ bearerJwt: [] }],
        operationId: "connectEventStream",
        summary: "Event stream of the player's real-time offers (text/event-stream)",
        description:
          "Bearer JWT. Events: `offer_surfaced` with `id:` (per-player sequence) and data `{offer}`; `:heartbeat` comments. " +
          "Send `Last-Event-ID` to receive what was missed. A newer connection of the same player replaces this one: " +
          "the older gets the comment `:replaced` and the event `replaced` (id `replaced`, data `{\"message\":\"stream-replaced\"}`) and is closed. " +
          "A reconnect with `Last-Event-ID: replaced` is answered 409 `{\"message\":\"stream-replaced\"}`, so a standard EventSource stops " +
          "instead of taking the stream back; open a new one (without Last-Event-ID) to take it over.",
        headers: z.object({ "last-event-id": z.string().optional() }).loose(),
        response: {
          200: {
            description: "The stream, open until the JWT expires, a newer connection of the player replaces it, or the client stops reading for 2 minutes.",
            content: { "text/event-stream": { schema: S.EventStreamText } },
          },
          ...errorResponses("game-client", { codes: ["stream-replaced"], body: false }),
        },
      },
      // A refused JWT is thrown before the stream opens: the error handler answers it like any route's.
      preHandler: async (request) => {
        const jwt = await options.verifyJwt(request);
        request.offersCaller = { gameId: jwt.gameId, playerId: jwt.playerId, via: jwt.via };
        verified.set(request, jwt);
      },
    },
    async (request, reply) => {
      const jwt = verified.get(request)!;
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
};
