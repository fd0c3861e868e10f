import { afterEach, describe, expect, it, vi } from "vitest";
import { SseTransport } from "./channel";
import type { SampledSocket } from "./stall-sampler";
import type { SseSink, StallReport } from "./types";

/** A connection that takes what is written at once (accepting) or holds it. */
class FakeSink implements SseSink {
  chunks: string[] = [];
  ended = false;
  destroyed = false;
  accepting = true;
  constructor(readonly socket?: SampledSocket) {}
  write(chunk: string, flushed: () => void) {
    this.chunks.push(chunk);
    if (this.accepting) setImmediate(flushed);
  }
  end(finished: () => void) {
    this.ended = true;
    if (this.accepting) setImmediate(finished);
  }
  destroy() {
    this.destroyed = true;
  }
}

describe("a channel of the stream transport", () => {
  const transports: SseTransport[] = [];
  const transport = (staleTimeoutMs = 5_000) => {
    const made = new SseTransport({ heartbeatMs: 1_000, staleTimeoutMs, sampleMs: 60_000 });
    transports.push(made);
    return made;
  };
  afterEach(() => {
    transports.splice(0).forEach((t) => t.stop());
    vi.useRealTimers();
  });

  it("writes events and comments as text/event-stream, and its last words as one chunk", () => {
    const sink = new FakeSink();
    const channel = transport().open(sink, { onStall: () => {} });
    channel.send({ comment: "connected", retryMs: 1_500 });
    channel.send({ event: "offer_surfaced", data: { a: 1 }, id: 7 });
    channel.send({ event: "presence", data: { connected: true } });
    channel.end([{ comment: "bye" }, { event: "bye", data: {}, id: "bye" }]);
    channel.send({ comment: "after the end" });
    expect(sink.chunks).toEqual([
      "retry: 1500\n:connected\n\n",
      'id: 7\nevent: offer_surfaced\ndata: {"a":1}\n\n',
      'event: presence\ndata: {"connected":true}\n\n',
      ':bye\n\nid: bye\nevent: bye\ndata: {}\n\n',
    ]);
    expect(sink.ended).toBe(true);
  });

  it("beats, reports a client that has taken nothing for the stale timeout, and leaves no timer once dropped", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "performance"] });
    const sink = new FakeSink();
    sink.accepting = false;
    const reports: StallReport[] = [];
    const channel = transport().open(sink, {
      onStall: (report) => {
        reports.push(report);
        channel.drop();
      },
    });
    channel.send({ comment: "connected" });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(sink.chunks.filter((c) => c === ":heartbeat\n\n").length).toBeGreaterThanOrEqual(4);
    expect(reports).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(reports).toEqual([{ seenIn: "node" }]);
    expect(sink.destroyed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("drops an ended channel whose client does not take its last bytes within a short grace", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "performance"] });
    const sink = new FakeSink();
    sink.accepting = false;
    const reports: StallReport[] = [];
    transport(60_000).open(sink, { onStall: (report) => reports.push(report) }).end();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(sink.destroyed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(sink.destroyed).toBe(true);
    expect(reports).toEqual([]);
  });

  it("tells the socket's addresses, when there is a socket", () => {
    const socket = { localAddress: "127.0.0.1", localPort: 4000, remoteAddress: "127.0.0.2", remotePort: 50_000, bytesWritten: 0, writableLength: 0, destroyed: false };
    const over = transport().open(new FakeSink(socket), { onStall: () => {} });
    expect(over.addresses).toEqual({ localAddress: "127.0.0.1", localPort: 4000, remoteAddress: "127.0.0.2", remotePort: 50_000 });
    over.drop();
    const without = transport().open(new FakeSink(), { onStall: () => {} });
    expect(without.addresses).toBeUndefined();
    without.drop();
  });
});
