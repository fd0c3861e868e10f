// GET /api/offers/games/:gameId/players/:playerId/watch — the player's live events (support role),
// proxied from the offers service's admin watch stream so that the browser's native EventSource
// works on our own origin and the admin token never leaves the server.
//
// When the offers service cannot be reached the answer is still an event stream: an `unavailable`
// event and a `retry:` hint, so EventSource keeps reconnecting by itself instead of giving up.
import { eventStreamHeaders, OffersAdminError, relayEventStream, unavailableEventStream } from "@/lib/portal/offers-admin";
import { CLIENT_CLOSED_REQUEST, nonJson, route } from "@/lib/portal/http";
import { PlayerParams } from "../../../../../params";

export const dynamic = "force-dynamic";

export const GET = route({
  offersEnvironment: true,
  doc: {
    responses: {
      200: {
        description: "The player's events as server-sent events (an `unavailable` event and a retry hint while the offers service is away)",
        contentType: "text/event-stream",
      },
    },
  },
  role: "support",
  params: PlayerParams,
  handler: async ({ request, params, services }) => {
    // Aborted when the browser goes away (request.signal) or the relayed body is cancelled.
    const upstreamAbort = new AbortController();
    const abort = () => upstreamAbort.abort();
    request.signal.addEventListener("abort", abort, { once: true });
    let upstream: Response;
    try {
      upstream = await services.offersAdmin().openWatch(params.gameId, params.playerId, upstreamAbort.signal);
    } catch (error) {
      request.signal.removeEventListener("abort", abort);
      if (error instanceof OffersAdminError) return nonJson(unavailableEventStream(error, error.unavailable ? 3_000 : 15_000));
      if (request.signal.aborted) return nonJson(new Response(null, { status: CLIENT_CLOSED_REQUEST }));
      throw error;
    }
    return nonJson(new Response(relayEventStream(upstream, abort), { status: 200, headers: eventStreamHeaders }));
  },
});
