/**
 * Two standard event-stream clients of one player against a real offers app on loopback: the
 * `eventsource` package (the HTML EventSource rules) and @microsoft/fetch-event-source (used as its
 * README documents). The displaced one stops for good instead of taking the stream back; the newer
 * one keeps receiving offers; a client created afresh later takes the stream over normally.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AddressInfo } from "node:net";
import { EventSource } from "eventsource";
import { EventStreamContentType, fetchEventSource, type EventSourceMessage } from "@microsoft/fetch-event-source";
import { MemoryEventBus } from "../../events";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";
import { createEventStream, type EventStream } from "./index";

const RETRY_MS = 150;
/** Long enough for several reconnection attempts, had the displaced client kept trying. */
const QUIET_MS = 4 * RETRY_MS + 400;

async function until(check: () => boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** What a client did: its requests (with the Last-Event-ID each sent), answers and events. */
interface ClientLog {
  requests: Array<string | null>;
  statuses: number[];
  events: Array<{ type: string; id: string; data: string }>;
  stopped: boolean;
}

interface StandardClient {
  log: ClientLog;
  close(): void;
}

type ClientFactory = (url: string, token: string) => StandardClient;

function newLog(): ClientLog {
  return { requests: [], statuses: [], events: [], stopped: false };
}

/** A fetch that adds the Authorization header (neither package can set it otherwise) and records traffic. */
function recordingFetch(token: string, log: ClientLog): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    log.requests.push(headers.get("last-event-id"));
    headers.set("Authorization", `Bearer ${token}`);
    const response = await fetch(input, { ...init, headers });
    log.statuses.push(response.status);
    return response;
  };
}

/** The `eventsource` package, as a page would use the browser's EventSource (no app logic). */
const eventsourceClient: ClientFactory = (url, token) => {
  const log = newLog();
  const source = new EventSource(url, { fetch: recordingFetch(token, log) });
  for (const type of ["offer_surfaced", "replaced"]) {
    source.addEventListener(type, (e) => log.events.push({ type, id: e.lastEventId, data: e.data }));
  }
  source.addEventListener("error", () => {
    // Failed for good (EventSource does not reconnect from CLOSED).
    if (source.readyState === source.CLOSED) log.stopped = true;
  });
  return { log, close: () => source.close() };
};

class RetriableError extends Error {}
class FatalError extends Error {}

/** @microsoft/fetch-event-source with the handlers of its README ("fatal" 4xx other than 429, retry otherwise). */
const fetchEventSourceClient: ClientFactory = (url, token) => {
  const log = newLog();
  const controller = new AbortController();
  void fetchEventSource(url, {
    fetch: recordingFetch(token, log),
    signal: controller.signal,
    openWhenHidden: true,
    async onopen(response) {
      if (response.ok && response.headers.get("content-type") === EventStreamContentType) {
        return; // everything's good
      } else if (response.status >= 400 && response.status < 500 && response.status !== 429) {
        // client-side errors are usually non-retriable:
        throw new FatalError();
      } else {
        throw new RetriableError();
      }
    },
    onmessage(msg: EventSourceMessage) {
      log.events.push({ type: msg.event, id: msg.id, data: msg.data });
    },
    onclose() {
      // if the server closes the connection unexpectedly, retry:
      throw new RetriableError();
    },
    onerror(err) {
      if (err instanceof FatalError) {
        throw err; // rethrow to stop the operation
      } else {
        // do nothing to automatically retry. You can also
        // return a specific retry interval here.
      }
    },
  }).then(
    () => (log.stopped = true),
    () => (log.stopped = true),
  );
  return { log, close: () => controller.abort() };
};

describe.each([
  ["eventsource", eventsourceClient],
  ["@microsoft/fetch-event-source", fetchEventSourceClient],
] as const)("two %s clients of one player", (_name, connect) => {
  let ctx: OffersTestContext;
  let stream: EventStream;
  let url: string;
  const clients: StandardClient[] = [];
  const globals = globalThis as unknown as { window?: unknown; document?: unknown };
  const saved = { window: globals.window, document: globals.document };

  beforeAll(async () => {
    stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 5_000, staleTimeoutMs: 60_000, retryMs: RETRY_MS, now: () => ctx.clock.now().getTime() });
    ctx = await startOffersTestApp("pglite", { eventStream: stream });
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/v1/sse/connect`;
    // fetch-event-source is written for browsers: it reaches setTimeout through `window` and listens
    // for page visibility on `document`. Set after the database opened (PGlite reads them to tell a browser).
    globals.window ??= globalThis;
    globals.document ??= { hidden: false, addEventListener: () => {}, removeEventListener: () => {} };
    for (const offerId of ["live-1", "live-2", "live-3"]) {
      const res = await ctx.inject({
        method: "PUT",
        url: `/v1/offers/definitions/${offerId}`,
        headers: { ...ctx.apiHeaders(), "content-type": "application/json" },
        payload: { name: offerId, description: "", rewards: [{ kind: "coins", rewardId: "c", name: "Coins", amount: 1 }], realTime: true, durationSeconds: 3600 },
      });
      expect(res.statusCode).toBe(200);
    }
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(async () => {
    await ctx?.close();
    globals.window = saved.window;
    globals.document = saved.document;
  });

  const open = async (playerId: string) => {
    const client = connect(url, await ctx.jwt(playerId));
    clients.push(client);
    return client;
  };
  const surface = async (playerId: string, offerId: string) => {
    const res = await ctx.post("/v1/player/offers/assign", { playerId, offerId }, ctx.apiHeaders());
    expect(res.status).toBe(200);
    return res.body.instanceId as string;
  };
  const offersOf = (client: StandardClient) =>
    client.log.events.filter((e) => e.type === "offer_surfaced").map((e) => JSON.parse(e.data).offer.instanceId as string);

  it("the displaced client stops, the newer one keeps the stream, and a fresh client takes it over", { timeout: 30_000 }, async () => {
    const player = `p-${_name.replace(/\W/g, "")}`;
    const key = { gameId: ctx.game.gameId, playerId: player };
    const first = await open(player);
    await until(() => stream.hub.isLive(key), 5_000, "first connected");
    const firstOffer = await surface(player, "live-1");
    await until(() => offersOf(first).length === 1, 5_000, "first gets an offer");

    const second = await open(player);
    // The first is told, tries once more (sending the marker id), is refused, and stops.
    await until(() => first.log.stopped, 5_000, "displaced client stops");
    expect(first.log.events.at(-1)).toEqual({ type: "replaced", id: "replaced", data: '{"message":"stream-replaced"}' });
    expect(first.log.requests).toEqual([null, "replaced"]);
    expect(first.log.statuses).toEqual([200, 409]);

    await new Promise((r) => setTimeout(r, QUIET_MS));
    expect(first.log.requests).toHaveLength(2); // no further attempt
    expect(second.log.requests).toEqual([null]); // never displaced back
    expect(second.log.stopped).toBe(false);
    expect(stream.hub.connectionCount).toBe(1);

    const secondOffer = await surface(player, "live-2");
    await until(() => offersOf(second).length === 1, 5_000, "newer client gets the next offer");
    expect(offersOf(second)).toEqual([secondOffer]);
    expect(offersOf(first)).toEqual([firstOffer]);

    // The player comes back on the first device with a new client: it connects normally.
    const fresh = await open(player);
    await until(() => second.log.stopped, 5_000, "the second is displaced in turn");
    await until(() => fresh.log.statuses.length === 1, 5_000, "fresh client answered");
    expect(fresh.log.statuses).toEqual([200]);
    await until(() => stream.hub.isLive(key), 5_000, "fresh client live");
    const thirdOffer = await surface(player, "live-3");
    await until(() => offersOf(fresh).length === 1, 5_000, "fresh client gets an offer");
    expect(offersOf(fresh)).toEqual([thirdOffer]);
    expect(second.log.statuses).toEqual([200, 409]);
  });
});
