import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryEventBus, type EventBus } from "../../events";
import { SseHub, type OfferEventMessage, type PlayerKey, type SseSink, type SurfacedSince } from "./hub";
import type { Offer } from "../contract";

/** A connection that takes what is written at once (accepting) or holds it until drain(). */
class FakeSink implements SseSink {
  chunks: string[] = [];
  ended = false;
  destroyed = false;
  accepting = true;
  private held: Array<() => void> = [];
  write(chunk: string, flushed: () => void) {
    if (this.ended) throw new Error("write after end");
    this.chunks.push(chunk);
    this.take(flushed);
  }
  end(finished: () => void) {
    if (this.ended) throw new Error("end after end");
    this.ended = true;
    this.take(finished);
  }
  destroy() {
    this.ended = true;
    this.destroyed = true;
    this.held = [];
  }
  private take(callback: () => void) {
    if (this.accepting) setImmediate(callback);
    else this.held.push(callback);
  }
  /** The client reads everything queued so far. */
  drain() {
    this.accepting = true;
    this.held.splice(0).forEach((callback) => callback());
  }
  get text() {
    return this.chunks.join("");
  }
  /** ids of offer_surfaced events written so far */
  get surfacedIds() {
    return [...this.text.matchAll(/id: (\d+)\nevent: offer_surfaced\n/g)].map((m) => Number(m[1]));
  }
}

const player: PlayerKey = { gameId: "g", playerId: "p" };
const tick = () => new Promise((r) => setTimeout(r, 5));
async function until(check: () => boolean, ms = 1_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await tick();
  }
}

function offer(instanceId: string): Offer {
  return {
    offerId: "o",
    instanceId,
    playerId: player.playerId,
    gameId: player.gameId,
    name: "Offer",
    description: "",
    status: "surfaced",
    rewards: [],
    createdAt: new Date(0).toISOString(),
    expiresAt: new Date(0).toISOString(),
  } as Offer;
}

function event(seq: number, patch: Partial<OfferEventMessage> = {}): OfferEventMessage {
  return {
    kind: "offer_event",
    seq,
    type: "surfaced",
    instanceId: `i${seq}`,
    offerId: "o",
    fromStatus: null,
    toStatus: "surfaced",
    cause: "assigned",
    at: new Date(0).toISOString(),
    realTime: true,
    offer: offer(`i${seq}`),
    ...patch,
  };
}

describe("SseHub", () => {
  const hubs: SseHub[] = [];
  let stored: Array<{ seq: number; offer: Offer }> = [];
  let lastSeq = 0;
  const loads: Array<number | null> = [];
  const bus = new MemoryEventBus();

  function makeHub(overrides: Partial<ConstructorParameters<typeof SseHub>[0]> = {}) {
    const hub = new SseHub({
      bus,
      heartbeatMs: 60_000,
      staleTimeoutMs: 60_000,
      loadSurfacedSince: async (_key, after): Promise<SurfacedSince> => {
        loads.push(after);
        return { events: after === null ? [] : stored.filter((e) => e.seq > after), lastSeq };
      },
      ...overrides,
    });
    hubs.push(hub);
    return hub;
  }

  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((h) => h.closeAll()));
    stored = [];
    lastSeq = 0;
    loads.length = 0;
    expect(bus.channelCount).toBe(0);
  });

  const publish = (hub: SseHub, message: OfferEventMessage) => hub.publish(player, message);

  /** The shared bus, but while an instance's bus is down its messages are lost both ways; it says when it is back. */
  function outageBus() {
    const listeners = new Set<() => void>();
    let down = false;
    const wrapped: EventBus = {
      kind: "redis",
      get state() {
        return down ? ("degraded" as const) : ("ok" as const);
      },
      publish: async (channel, message) => (down ? undefined : bus.publish(channel, message)),
      subscribe: (channel, handler) => bus.subscribe(channel, (message) => (down ? undefined : handler(message))),
      onReconnect: (listener) => {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
      mark: (key, member, ttlMs, options) => bus.mark(key, member, ttlMs, options),
      unmark: (key, member) => bus.unmark(key, member),
      isMarked: (key) => bus.isMarked(key),
      close: async () => {},
    };
    return {
      bus: wrapped,
      listeners,
      goDown: () => (down = true),
      comeBack: () => {
        down = false;
        listeners.forEach((listener) => listener());
      },
    };
  }

  it("sends real-time surfaced offers with their seq as id, and nothing else", async () => {
    const hub = makeHub();
    const sink = new FakeSink();
    await hub.connect({ key: player, sink, expiresAtMs: Date.now() + 60_000, lastEventId: null });
    expect(sink.text.startsWith(":connected\n\n")).toBe(true);
    await publish(hub, event(1));
    await publish(hub, event(2, { type: "viewed", toStatus: "viewed" }));
    await publish(hub, event(3, { realTime: false }));
    await publish(hub, event(4));
    await until(() => sink.surfacedIds.length === 2);
    expect(sink.surfacedIds).toEqual([1, 4]);
    expect(sink.text).toContain(`event: offer_surfaced\ndata: ${JSON.stringify({ offer: offer("i1") })}\n\n`);
  });

  it("replays what was missed after Last-Event-ID, then goes on live without repeats", async () => {
    stored = [{ seq: 3, offer: offer("i3") }, { seq: 5, offer: offer("i5") }];
    lastSeq = 6;
    const hub = makeHub();
    const sink = new FakeSink();
    await hub.connect({ key: player, sink, expiresAtMs: Date.now() + 60_000, lastEventId: 2 });
    expect(sink.surfacedIds).toEqual([3, 5]);
    await publish(hub, event(5)); // already seen
    await publish(hub, event(7));
    await until(() => sink.surfacedIds.length === 3);
    expect(sink.surfacedIds).toEqual([3, 5, 7]);
  });

  it("delivers an offer that surfaced while the stream was being set up", async () => {
    const hub = makeHub({
      loadSurfacedSince: async (_key, after): Promise<SurfacedSince> => {
        loads.push(after);
        if (after === null) {
          // Right after the live edge is read, an offer commits; its bus message goes nowhere yet.
          const result = { events: [], lastSeq };
          stored = [{ seq: 1, offer: offer("i1") }];
          lastSeq = 1;
          return result;
        }
        return { events: stored.filter((e) => e.seq > after), lastSeq };
      },
    });
    const sink = new FakeSink();
    await hub.connect({ key: player, sink, expiresAtMs: Date.now() + 60_000, lastEventId: null });
    expect(sink.surfacedIds).toEqual([1]);
    expect(hub.isLive(player)).toBe(true);
  });

  it("reads the database when a message arrives out of order", async () => {
    const hub = makeHub();
    const sink = new FakeSink();
    await hub.connect({ key: player, sink, expiresAtMs: Date.now() + 60_000, lastEventId: null });
    stored = [{ seq: 1, offer: offer("i1") }, { seq: 2, offer: offer("i2") }];
    lastSeq = 2;
    await publish(hub, event(2)); // seq 1's message is late
    await until(() => sink.surfacedIds.length === 2);
    await publish(hub, event(1));
    await tick();
    expect(sink.surfacedIds).toEqual([1, 2]);
    expect(loads).toEqual([null, 0, 0]);
  });

  it("keeps one connection per player: a newer one replaces the older, on this or another instance", async () => {
    const a = makeHub();
    const b = makeHub();
    const first = new FakeSink();
    const second = new FakeSink();
    const third = new FakeSink();
    await a.connect({ key: player, sink: first, expiresAtMs: Date.now() + 60_000, lastEventId: null });
    await a.connect({ key: player, sink: second, expiresAtMs: Date.now() + 60_000, lastEventId: null });
    expect(first.ended).toBe(true);
    // A comment for SDKs of before the named event, and the event every standard client sees.
    expect(first.text.endsWith(':replaced\n\nid: replaced\nevent: replaced\ndata: {"message":"stream-replaced"}\n\n')).toBe(true);
    expect(a.connectionCount).toBe(1);
    await new Promise((r) => setTimeout(r, 2)); // a later openedAt
    await b.connect({ key: player, sink: third, expiresAtMs: Date.now() + 60_000, lastEventId: null });
    await until(() => second.ended);
    expect(a.connectionCount).toBe(0);
    expect(b.connectionCount).toBe(1);
    expect(third.ended).toBe(false);
  });

  it("answers whether a player is online at once, on this or another instance: no question asked, no reply waited for", async () => {
    const a = makeHub();
    const b = makeHub();
    await a.connect({ key: player, sink: new FakeSink(), expiresAtMs: Date.now() + 60_000, lastEventId: null });
    const nobody: PlayerKey = { gameId: "g", playerId: "nobody" };
    vi.useFakeTimers();
    try {
      // The clock stands still: an answer that needed a timer (a wait for other instances' replies) never comes.
      const answerNow = async (hub: SseHub, key: PlayerKey) => {
        let answer: boolean | undefined;
        void hub.isOnline(key).then((online) => (answer = online));
        await vi.advanceTimersByTimeAsync(0);
        return answer;
      };
      expect(await answerNow(a, player)).toBe(true);
      expect(await answerNow(b, player)).toBe(true);
      expect(await answerNow(b, nobody)).toBe(false);
      // An instance that died without closing its streams: its players' marks lapse after their time to live.
      await bus.mark("offers:player:g:crashed", "connection-of-a-dead-instance", 60_000, { claim: true });
      expect(await answerNow(b, { gameId: "g", playerId: "crashed" })).toBe(true);
      vi.advanceTimersByTime(60_001);
      expect(await answerNow(b, { gameId: "g", playerId: "crashed" })).toBe(false);
    } finally {
      vi.useRealTimers();
    }
    // A newer connection on b replaces a's: still online; gone once b's closes.
    await b.connect({ key: player, sink: new FakeSink(), expiresAtMs: Date.now() + 60_000, lastEventId: null });
    await until(() => a.connectionCount === 0);
    expect(await a.isOnline(player)).toBe(true);
    await b.closeAll();
    expect(await a.isOnline(player)).toBe(false);
  });

  it("sends heartbeats, closes at JWT expiry, and frees everything", async () => {
    const hub = makeHub({ heartbeatMs: 20 });
    const sink = new FakeSink();
    await hub.connect({ key: player, sink, expiresAtMs: Date.now() + 120, lastEventId: null });
    await until(() => sink.text.split(":heartbeat\n\n").length > 2);
    await until(() => sink.ended);
    expect(hub.connectionCount).toBe(0);
    expect(bus.channelCount).toBe(0);
  });

  it("closes a client that has read nothing for the stale timeout, but not one that drains", async () => {
    const hub = makeHub({ heartbeatMs: 10, staleTimeoutMs: 80 });
    const slow = new FakeSink();
    slow.accepting = false;
    await hub.connect({ key: player, sink: slow, expiresAtMs: Date.now() + 60_000, lastEventId: null });
    await until(() => slow.ended, 1_000);
    expect(hub.connectionCount).toBe(0);

    const other = { gameId: "g", playerId: "q" };
    const draining = new FakeSink();
    draining.accepting = false;
    await hub.connect({ key: other, sink: draining, expiresAtMs: Date.now() + 60_000, lastEventId: null });
    await new Promise((r) => setTimeout(r, 40));
    draining.drain();
    await new Promise((r) => setTimeout(r, 80));
    expect(draining.ended).toBe(false);
  });

  it("lets watchers observe every transition and connection change without taking the player's slot", async () => {
    const hub = makeHub();
    const watcherSink = new FakeSink();
    await hub.watch({ key: player, sink: watcherSink });
    const sink = new FakeSink();
    const connection = await hub.connect({ key: player, sink, expiresAtMs: Date.now() + 60_000, lastEventId: null });
    await publish(hub, event(1));
    await publish(hub, event(2, { type: "viewed", fromStatus: "surfaced", toStatus: "viewed" }));
    await connection.close("client closed");
    await until(() => watcherSink.text.includes('"state":"closed"'));
    const types = [...watcherSink.text.matchAll(/event: (\w+)/g)].map((m) => m[1]);
    expect(types).toEqual(["connection", "surfaced", "viewed", "connection"]);
    expect(hub.connectionCount).toBe(0);
    expect(hub.watcherCount).toBe(1);
    expect(sink.ended).toBe(true);
    expect(watcherSink.ended).toBe(false);
  });

  it("closes a client that stops reading after it has read, and drops its connection", async () => {
    const hub = makeHub({ heartbeatMs: 10, staleTimeoutMs: 100 });
    const sink = new FakeSink();
    await hub.connect({ key: player, sink, expiresAtMs: Date.now() + 60_000, lastEventId: null });
    await until(() => sink.text.includes(":heartbeat"));
    sink.accepting = false; // from now on nothing written is taken
    await until(() => sink.ended, 1_000);
    expect(sink.destroyed).toBe(true);
    expect(hub.connectionCount).toBe(0);
  });

  it("leaves no timer behind once a client that reads nothing is closed", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "performance"] });
    try {
      const hub = makeHub({ heartbeatMs: 1_000, staleTimeoutMs: 5_000 });
      const sink = new FakeSink();
      sink.accepting = false;
      await hub.connect({ key: player, sink, expiresAtMs: Date.now() + 3_600_000, lastEventId: null });
      expect(vi.getTimerCount()).toBe(4); // heartbeat, JWT expiry, stall, presence renewal
      await vi.advanceTimersByTimeAsync(4_999);
      expect(sink.ended).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(sink.destroyed).toBe(true);
      expect(hub.connectionCount).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("drops a replaced connection whose client does not take its last bytes", async () => {
    const hub = makeHub({ staleTimeoutMs: 100 });
    const stuck = new FakeSink();
    await hub.connect({ key: player, sink: stuck, expiresAtMs: Date.now() + 60_000, lastEventId: null });
    stuck.accepting = false;
    await hub.connect({ key: player, sink: new FakeSink(), expiresAtMs: Date.now() + 60_000, lastEventId: null });
    expect(stuck.ended).toBe(true);
    expect(stuck.destroyed).toBe(false);
    await until(() => stuck.destroyed, 1_000);
  });

  it("after a bus outage, reads what was missed and makes an older connection elsewhere yield", async () => {
    const a = outageBus();
    const b = outageBus();
    const hubA = makeHub({ bus: a.bus });
    const hubB = makeHub({ bus: b.bus });
    const older = new FakeSink();
    await hubA.connect({ key: player, sink: older, expiresAtMs: Date.now() + 60_000, lastEventId: null });
    expect(a.listeners.size).toBe(1);

    // The bus is away: B's takeover does not reach A, and offers surfaced elsewhere do not reach B.
    a.goDown();
    b.goDown();
    await new Promise((r) => setTimeout(r, 2)); // a later openedAt
    const newer = new FakeSink();
    await hubB.connect({ key: player, sink: newer, expiresAtMs: Date.now() + 60_000, lastEventId: null });
    stored = [{ seq: 1, offer: offer("i1") }, { seq: 2, offer: offer("i2") }];
    lastSeq = 2;
    expect(newer.surfacedIds).toEqual([]);
    expect(older.ended).toBe(false);

    // B is back first: its announcement cannot reach A yet. When A is back, A announces its older
    // connection, B answers, and A's yields.
    b.comeBack();
    await until(() => newer.surfacedIds.length === 2);
    await new Promise((r) => setTimeout(r, 20));
    expect(older.ended).toBe(false);
    a.comeBack();
    expect(newer.surfacedIds).toEqual([1, 2]);
    await until(() => older.ended);
    expect(older.text).toContain("event: replaced");
    expect(newer.ended).toBe(false);
    expect(hubA.connectionCount).toBe(0);
    expect(a.listeners.size).toBe(0); // no connection left on A: it stops listening
  });
});
