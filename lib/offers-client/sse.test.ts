import { afterEach, describe, expect, it, vi } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { backoffDelay, connectEventStream, DEFAULT_SILENCE_TIMEOUT_MS, EventStreamParser, type EventStreamOptions, type StreamEvent, type StreamState } from "./sse";
import { createJwtProvider, jwtExpiry } from "./jwt-provider";
import { createGameClient } from "./index";

/** A stream whose events, comments and state changes are recorded in order. */
function recordedStream(options: Omit<EventStreamOptions, "onEvent" | "onComment" | "onStateChange">) {
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  const states: StreamState[] = [];
  const handle = connectEventStream({
    ...options,
    onEvent: (e) => events.push(e),
    onComment: (c) => comments.push(c),
    onStateChange: (s) => states.push(s),
  });
  return { handle, events, comments, states };
}

describe("EventStreamParser", () => {
  function parse(chunks: string[]) {
    const events: StreamEvent[] = [];
    const comments: string[] = [];
    const parser = new EventStreamParser((e) => events.push(e), (c) => comments.push(c));
    for (const chunk of chunks) parser.push(chunk);
    return { events, comments, parser };
  }

  it("reads typed events with ids, comments and multi-line data", () => {
    const { events, comments } = parse([":heartbeat\n\nid: 7\nevent: offer_surfaced\ndata: {\"a\":1}\n\n", "data: line1\ndata: line2\n\n"]);
    expect(comments).toEqual(["heartbeat"]);
    expect(events).toEqual([
      { id: "7", event: "offer_surfaced", data: '{"a":1}' },
      { id: "7", event: "message", data: "line1\nline2" },
    ]);
  });

  it("joins events split at any byte and accepts CRLF and CR line ends", () => {
    const text = "id: 1\r\nevent: x\r\ndata: hello\r\n\r\nid: 2\rdata: bye\r\r\n";
    const chunked = text.split("");
    const { events, parser } = parse(chunked);
    expect(events).toEqual([
      { id: "1", event: "x", data: "hello" },
      { id: "2", event: "message", data: "bye" },
    ]);
    expect(parser.lastEventId).toBe("2");
  });

  it("ignores unknown fields, keeps retry, and dispatches nothing without data", () => {
    const { events, parser } = parse(["foo: bar\nretry: 1500\nevent: empty\n\n"]);
    expect(events).toEqual([]);
    expect(parser.retryMs).toBe(1500);
  });
});

describe("connectEventStream on a large stream in awkward chunks", () => {
  /** Splits bytes at the given offsets, then every `size` bytes. */
  function splitBytes(bytes: Uint8Array, cuts: number[], size: number): Uint8Array[] {
    const points = [...cuts];
    for (let at = Math.max(...cuts) + size; at < bytes.length; at += size) points.push(at);
    points.sort((a, b) => a - b);
    const parts: Uint8Array[] = [];
    let from = 0;
    for (const at of points) {
      parts.push(bytes.subarray(from, at));
      from = at;
    }
    parts.push(bytes.subarray(from));
    return parts;
  }

  it("parses every event whatever the chunk boundaries, line endings and characters", async () => {
    // About 5 MB of text in which 2-, 3- and 4-byte UTF-8 characters are everywhere, so the
    // chunk boundaries of the transport fall inside them.
    const unit = "é中😀x";
    const large = unit.repeat(Math.ceil((5 * 1024 * 1024) / Buffer.byteLength(unit)));
    const text =
      ":heartbeat\r\n\r\n" +
      'id: 1\r\nevent: offer_surfaced\r\ndata: {"name":"Crème brûlée 🍮"}\r\n\r\n' +
      "id: 2\revent: offer_surfaced\rdata: first line\rdata: second line\r\r" +
      `id: 3\nevent: offer_surfaced\ndata: ${large}\n\n` +
      "id: 4\r\ndata: after the large one 中文\r\n\r\n";
    const bytes = new TextEncoder().encode(text);
    const find = (needle: string, offset = 0) => Buffer.from(bytes).indexOf(Buffer.from(needle), offset);
    const cuts = [
      find("heart") + 2, // inside a comment
      find("\r\n\r\nid: 1") + 1, // between \r and \n
      find("data:") + 2, // inside a field name
      find("🍮") + 1, // inside a 4-byte character
      find("è") + 1, // inside a 2-byte character
      find("\rdata: second") + 1, // right after a lone \r
      find("\r\r") + 1, // between the two lone \r that end event 2
      find("中", find("id: 3")) + 2, // inside a 3-byte character of the large event
    ];
    const chunks = splitBytes(bytes, cuts, 65_537);
    expect(chunks.length).toBeGreaterThan(80);

    const requests: Array<string | null> = [];
    const fakeFetch = async (_url: string | URL | Request, init?: RequestInit) => {
      requests.push(new Headers(init?.headers).get("last-event-id"));
      if (requests.length > 1) {
        return new Response(JSON.stringify({ message: "stream-replaced" }), { status: 409 });
      }
      let next = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (next < chunks.length) controller.enqueue(chunks[next++]!);
          else controller.close();
        },
      });
      return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
    };

    const { handle, events, comments } = recordedStream({
      url: "http://127.0.0.1/v1/sse/connect",
      getToken: async () => "t",
      fetch: fakeFetch as typeof fetch,
      initialDelayMs: 1,
    });
    await handle.closed;

    expect(comments).toEqual(["heartbeat"]);
    expect(events.map((e) => [e.id, e.event])).toEqual([
      ["1", "offer_surfaced"],
      ["2", "offer_surfaced"],
      ["3", "offer_surfaced"],
      ["4", "message"],
    ]);
    expect(events[0]!.data).toBe('{"name":"Crème brûlée 🍮"}');
    expect(events[1]!.data).toBe("first line\nsecond line");
    expect(events[2]!.data.length).toBe(large.length);
    expect(events[2]!.data === large).toBe(true);
    expect(events[3]!.data).toBe("after the large one 中文");
    // The stream ended, the reader resumed after the last event and stopped on the 409.
    expect(requests).toEqual([null, "4"]);
    expect(handle.lastEventId).toBe("4");
  });
});

describe("backoffDelay", () => {
  it("grows exponentially with jitter and stays under the cap", () => {
    expect(backoffDelay(1, 500, 30_000, () => 0)).toBe(250);
    expect(backoffDelay(1, 500, 30_000, () => 1)).toBe(500);
    expect(backoffDelay(4, 500, 30_000, () => 1)).toBe(4_000);
    expect(backoffDelay(20, 500, 30_000, () => 1)).toBe(30_000);
  });
});

function fakeJwt(exp: number, sub = "p1") {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ sub, exp })}.sig`;
}

describe("createJwtProvider", () => {
  it("caches until shortly before exp, shares concurrent fetches, and renews on demand", async () => {
    let clock = 1_000_000_000_000;
    let fetches = 0;
    const provider = createJwtProvider(
      async () => {
        fetches += 1;
        return fakeJwt(Math.floor(clock / 1000) + 900, `p${fetches}`);
      },
      { now: () => clock },
    );
    const [a, b] = await Promise.all([provider(), provider()]);
    expect(a).toBe(b);
    expect(fetches).toBe(1);
    clock += 800_000;
    expect(await provider()).toBe(a);
    clock += 50_000; // within 60 s of exp
    const renewed = await provider();
    expect(renewed).not.toBe(a);
    expect(await provider({ forceRefresh: true })).not.toBe(renewed);
    expect(fetches).toBe(3);
    expect(jwtExpiry(renewed)).toBeGreaterThan(0);
    expect(jwtExpiry("garbage")).toBeUndefined();
  });
});

describe("connectEventStream against a real HTTP server", () => {
  type Handler = (req: http.IncomingMessage, res: http.ServerResponse, connection: number) => void;
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  async function serve(handler: Handler) {
    let connection = 0;
    const seen: http.IncomingHttpHeaders[] = [];
    server = http.createServer((req, res) => {
      seen.push(req.headers);
      handler(req, res, ++connection);
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1/sse/connect`, seen };
  }

  const streamHead = (res: http.ServerResponse) =>
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });

  it("reconnects after the server ends the stream and resumes with Last-Event-ID", async () => {
    const { url, seen } = await serve((_req, res, n) => {
      streamHead(res);
      if (n === 1) {
        res.write("id: 1\nevent: offer_surfaced\ndata: {\"n\":1}\n\n");
        res.write("id: 2\nevent: offer_surfaced\ndata: {\"n\":2}\n\n");
        res.end(); // a server restart, say
      } else {
        res.write("id: 3\nevent: offer_surfaced\ndata: {\"n\":3}\n\n");
      }
    });
    const { handle, events, states } = recordedStream({ url, getToken: async () => "tok", initialDelayMs: 10, maxDelayMs: 50 });
    while (events.length < 3) await new Promise((r) => setTimeout(r, 10));
    handle.close();
    await handle.closed;
    expect(events.map((e) => e.id)).toEqual(["1", "2", "3"]);
    expect(seen[0]!.authorization).toBe("Bearer tok");
    expect(seen[0]!.accept).toBe("text/event-stream");
    expect(seen[0]!["last-event-id"]).toBeUndefined();
    expect(seen[1]!["last-event-id"]).toBe("2");
    expect(states.map((s) => s.status)).toEqual(["open", "reconnecting", "open", "closed"]);
    expect(handle.lastEventId).toBe("3");
  });

  it("asks for a fresh token after a JWT error and backs off while the server is down", async () => {
    const tokens: boolean[] = [];
    const { url, seen } = await serve((req, res, n) => {
      if (n === 1) {
        res.writeHead(401, { "Content-Type": "application/json" }).end(JSON.stringify({ message: "jwt-expired" }));
        return;
      }
      streamHead(res);
      res.write(`id: ${n}\ndata: ok\n\n`);
    });
    const { handle, events, states } = recordedStream({
      url,
      getToken: async ({ forceRefresh = false } = {}) => {
        tokens.push(forceRefresh);
        return forceRefresh ? "fresh" : "stale";
      },
      initialDelayMs: 10,
    });
    while (events.length < 1) await new Promise((r) => setTimeout(r, 10));
    handle.close();
    await handle.closed;
    expect(tokens.slice(0, 2)).toEqual([false, true]);
    expect(seen[1]!.authorization).toBe("Bearer fresh");
    expect(states[0]).toMatchObject({ status: "reconnecting", attempt: 1, reason: "HTTP 401 jwt-expired" });
  });

  it("stops for good when a newer connection replaced it, keeping the last offer's id", async () => {
    const { url, seen } = await serve((_req, res) => {
      streamHead(res);
      res.write('id: 7\nevent: offer_surfaced\ndata: {"offer":{}}\n\n');
      res.end(':replaced\n\nid: replaced\nevent: replaced\ndata: {"message":"stream-replaced"}\n\n');
    });
    const { handle, events } = recordedStream({ url, getToken: async () => "t", initialDelayMs: 10 });
    await handle.closed;
    expect(handle.state).toMatchObject({ status: "closed", reason: "replaced by a newer connection" });
    expect(events.map((e) => e.event)).toEqual(["offer_surfaced", "replaced"]);
    // A later stream resumes after the last offer, not after the marker.
    expect(handle.lastEventId).toBe("7");
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toHaveLength(1);
  });

  it("also stops on the named event alone, on the comment of older servers, and on a 409 stream-replaced", async () => {
    const answers: Array<(res: http.ServerResponse) => void> = [
      (res) => {
        streamHead(res);
        res.end('id: replaced\nevent: replaced\ndata: {"message":"stream-replaced"}\n\n');
      },
      (res) => {
        streamHead(res);
        res.end(":replaced\n\n");
      },
      (res) => res.writeHead(409, { "Content-Type": "application/json" }).end(JSON.stringify({ message: "stream-replaced" })),
    ];
    for (const answer of answers) {
      const { url, seen } = await serve((_req, res) => answer(res));
      const handle = connectEventStream({ url, getToken: async () => "t", onEvent: () => {}, initialDelayMs: 10, lastEventId: "3" });
      await handle.closed;
      expect(handle.state).toMatchObject({ status: "closed", reason: "replaced by a newer connection" });
      await new Promise((r) => setTimeout(r, 50));
      expect(seen).toHaveLength(1);
      expect(seen[0]!["last-event-id"]).toBe("3");
      server?.closeAllConnections();
      await new Promise((r) => server?.close(r));
    }
  });

  it("keeps retrying with growing delays while nothing listens, then connects", async () => {
    // Reserve a port, close it: connections are refused until the server comes up there.
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const { handle, events, states } = recordedStream({
      url: `http://127.0.0.1:${port}/v1/sse/connect`,
      getToken: async () => "t",
      initialDelayMs: 20,
      maxDelayMs: 100,
      random: () => 1,
    });
    while (states.filter((s) => s.status === "reconnecting").length < 3) await new Promise((r) => setTimeout(r, 10));
    server = http.createServer((_req, res) => {
      streamHead(res);
      res.write("id: 9\ndata: back\n\n");
    });
    await new Promise<void>((r) => server!.listen(port, "127.0.0.1", r));
    while (events.length < 1) await new Promise((r) => setTimeout(r, 10));
    handle.close();
    await handle.closed;
    const attempts = states.filter((s) => s.status === "reconnecting").map((s) => s.attempt);
    expect(attempts.slice(0, 3)).toEqual([1, 2, 3]);
    expect(events[0]!.data).toBe("back");
  });

  it("drops a connection that goes silent (socket open, nothing written) and resumes on a new one with Last-Event-ID", async () => {
    let silentSince = 0;
    let silentClosedAt = 0;
    const { url, seen } = await serve((_req, res, n) => {
      streamHead(res);
      if (n === 1) {
        res.write(':connected\n\nid: 1\nevent: offer_surfaced\ndata: {"n":1}\n\n');
        res.write('id: 2\nevent: offer_surfaced\ndata: {"n":2}\n\n', () => (silentSince = Date.now()));
        // Then nothing, as from a host cut off: the socket stays open, no FIN, no RST.
        res.on("close", () => (silentClosedAt = Date.now()));
      } else {
        res.write(':connected\n\nid: 3\nevent: offer_surfaced\ndata: {"n":3}\n\n');
      }
    });
    const events: StreamEvent[] = [];
    const states: Array<StreamState & { at: number }> = [];
    const handle = connectEventStream({
      url,
      getToken: async () => "t",
      onEvent: (e) => events.push(e),
      onStateChange: (s) => states.push({ ...s, at: Date.now() }),
      silenceTimeoutMs: 400,
      initialDelayMs: 10,
      maxDelayMs: 50,
    });
    while (events.length < 3) await new Promise((r) => setTimeout(r, 10));
    handle.close();
    await handle.closed;

    // The player gets every offer once, in order: the new connection resumed after the last one.
    expect(events.map((e) => e.id)).toEqual(["1", "2", "3"]);
    expect(seen).toHaveLength(2);
    expect(seen[1]!["last-event-id"]).toBe("2");
    expect(states.map((s) => s.status)).toEqual(["open", "reconnecting", "open", "closed"]);
    expect(states[1]).toMatchObject({ attempt: 1, reason: "no data for 400 ms (heartbeat missed): connection dropped" });
    // Dropped after the silence, not before; and the client closed the silent connection itself.
    expect(states[1]!.at - silentSince).toBeGreaterThanOrEqual(400 - 5);
    expect(silentClosedAt).toBeGreaterThan(0);
  });

  it("keeps a connection that sends heartbeats, or any byte, however long it runs", async () => {
    const timers: Array<ReturnType<typeof setInterval>> = [];
    const { url, seen } = await serve((_req, res) => {
      streamHead(res);
      res.write(":connected\n\n");
      // Heartbeats every 100 ms for 1.2 s, then one event trickled a byte at a time every 100 ms
      // (1.8 s for the event, more than three times the silence).
      let beats = 0;
      const slow = [..."id: 5\ndata: slow\n\n"];
      const timer = setInterval(() => {
        if (beats < 12) {
          beats += 1;
          res.write(":heartbeat\n\n");
        } else if (slow.length) {
          res.write(slow.shift()!);
        } else {
          clearInterval(timer);
        }
      }, 100);
      timers.push(timer);
      res.on("close", () => clearInterval(timer));
    });
    const { handle, events, comments, states } = recordedStream({ url, getToken: async () => "t", silenceTimeoutMs: 500, initialDelayMs: 10 });
    while (events.length < 1) await new Promise((r) => setTimeout(r, 20));
    handle.close();
    await handle.closed;
    for (const timer of timers) clearInterval(timer);

    expect(comments.filter((c) => c === "heartbeat")).toHaveLength(12);
    expect(events).toEqual([{ id: "5", event: "message", data: "slow" }]);
    // One connection throughout: never dropped, never reconnected.
    expect(seen).toHaveLength(1);
    expect(states.map((s) => s.status)).toEqual(["open", "closed"]);
  });
});

describe("the watchdog on fake timers", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  /** A fetch whose streams the test writes to; aborting the request errors its body, as fetch does. */
  function controlledFetch(options: { answer?: boolean } = {}) {
    const bodies: Array<ReadableStreamDefaultController<Uint8Array>> = [];
    const lastEventIds: Array<string | null> = [];
    const fakeFetch = (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      lastEventIds.push(new Headers(init?.headers).get("last-event-id"));
      const aborted = () => new DOMException("This operation was aborted", "AbortError");
      if (options.answer === false) {
        return new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(aborted())));
      }
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          bodies.push(controller);
          init?.signal?.addEventListener("abort", () => controller.error(aborted()));
        },
      });
      return Promise.resolve(new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } }));
    };
    const send = (connection: number, text: string) => bodies[connection]!.enqueue(new TextEncoder().encode(text));
    return { fetch: fakeFetch as typeof fetch, bodies, lastEventIds, send };
  }

  it("by default takes a connection for dead after 45 s without a byte, with one timer per stream and none after close", async () => {
    vi.useFakeTimers();
    const server = controlledFetch();
    const { handle, events, states } = recordedStream({ url: "http://offers.test/v1/sse/connect", getToken: async () => "t", fetch: server.fetch, random: () => 1 });
    await vi.advanceTimersByTimeAsync(0);
    server.send(0, ':connected\n\nid: 1\nevent: offer_surfaced\ndata: {}\n\n');
    await vi.advanceTimersByTimeAsync(0);
    expect(events).toHaveLength(1);

    // Ten minutes of heartbeats every 30 s: the same connection all along, one timer.
    for (let i = 0; i < 20; i++) {
      await vi.advanceTimersByTimeAsync(30_000);
      server.send(0, ":heartbeat\n\n");
      expect(vi.getTimerCount()).toBe(1);
    }
    // A burst of chunks sets no timer: each one only notes its time.
    const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
    for (let i = 0; i < 1_000; i++) {
      server.send(0, `id: ${i + 2}\nevent: offer_surfaced\ndata: {}\n\n`);
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(events).toHaveLength(1_001);
    expect(setTimeoutSpy.mock.calls.length).toBeLessThanOrEqual(1);
    expect(vi.getTimerCount()).toBe(1);
    expect(server.bodies).toHaveLength(1);

    // A last heartbeat, then silence: still open a moment before 45 s, dropped at 45 s, back with Last-Event-ID.
    server.send(0, ":heartbeat\n\n");
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(DEFAULT_SILENCE_TIMEOUT_MS - 1);
    expect(handle.state.status).toBe("open");
    await vi.advanceTimersByTimeAsync(1);
    expect(handle.state).toMatchObject({ status: "reconnecting", attempt: 1, reason: "no data for 45000 ms (heartbeat missed): connection dropped" });
    await vi.advanceTimersByTimeAsync(500);
    expect(server.bodies).toHaveLength(2);
    expect(server.lastEventIds).toEqual([null, "1001"]);
    expect(handle.state.status).toBe("open");

    handle.close();
    await handle.closed;
    expect(vi.getTimerCount()).toBe(0);
    expect(states.map((s) => s.status)).toEqual(["open", "reconnecting", "open", "closed"]);
  });

  it("also drops a request that is never answered, and keeps backing off while none is", async () => {
    vi.useFakeTimers();
    const server = controlledFetch({ answer: false });
    const { handle, states } = recordedStream({ url: "http://offers.test/v1/sse/connect", getToken: async () => "t", fetch: server.fetch, silenceTimeoutMs: 10_000, random: () => 1 });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(states).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    // Each wait is the silence, then the backoff (500 ms, 1 s, 2 s with full jitter at its top).
    await vi.advanceTimersByTimeAsync(500 + 10_000 + 1_000 + 10_000);
    expect(states.map((s) => [s.status, s.attempt])).toEqual([
      ["reconnecting", 1],
      ["reconnecting", 2],
      ["reconnecting", 3],
    ]);
    expect(states.every((s) => s.reason === "no data for 10000 ms (heartbeat missed): connection dropped")).toBe(true);
    handle.close();
    await handle.closed;
    expect(vi.getTimerCount()).toBe(0);
  });

  it("starts the backoff over after a connection that was open, so a cut-off stream is back within the first delay", async () => {
    vi.useFakeTimers();
    const server = controlledFetch();
    let calls = 0;
    const flaky: typeof fetch = (input, init) => (++calls <= 3 ? Promise.reject(new TypeError("fetch failed")) : server.fetch(input, init));
    const { handle, states } = recordedStream({ url: "http://offers.test/v1/sse/connect", getToken: async () => "t", fetch: flaky, silenceTimeoutMs: 10_000, random: () => 1 });
    // Three refusals (waits of 0.5, 1 and 2 s), then a stream that sends one heartbeat and goes silent.
    await vi.advanceTimersByTimeAsync(3_500);
    server.send(0, ":heartbeat\n\n");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(states.map((s) => [s.status, s.attempt])).toEqual([
      ["reconnecting", 1],
      ["reconnecting", 2],
      ["reconnecting", 3],
      ["open", 0],
      ["reconnecting", 1],
    ]);
    handle.close();
    await handle.closed;
  });

  it("is set per stream through the game client's connectStream", async () => {
    vi.useFakeTimers();
    const server = controlledFetch();
    const states: StreamState[] = [];
    const game = createGameClient({ baseUrl: "http://offers.test/v1", getJwt: async () => fakeJwt(2_000_000_000), fetch: server.fetch });
    const stream = game.connectStream({ onOffer: () => {}, onStateChange: (s) => states.push(s), silenceTimeoutMs: 5_000 });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(states.map((s) => s.status)).toEqual(["open"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(states[1]).toMatchObject({ status: "reconnecting", reason: "no data for 5000 ms (heartbeat missed): connection dropped" });
    stream.close();
    await stream.closed;
  });

  it("refuses a silence that is not a positive whole number of milliseconds", () => {
    const base = { url: "http://offers.test/v1/sse/connect", getToken: async () => "t", onEvent: () => {} };
    for (const silenceTimeoutMs of [0, -1, 1.5, Number.NaN, 2 ** 31]) {
      expect(() => connectEventStream({ ...base, silenceTimeoutMs })).toThrow();
    }
  });
});
