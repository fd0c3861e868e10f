/**
 * The event stream over real HTTP, on a real database: contract, replay, replacement, cleanup,
 * slow readers, the admin watch stream, two instances sharing a bus, and the SDK across a restart.
 * One file over 400 lines: every case shares the raw-socket and real-server helpers at its top.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import net from "node:net";
import v8 from "node:v8";
import vm from "node:vm";
import { randomBytes } from "node:crypto";
import diagnostics_channel from "node:diagnostics_channel";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { MemoryEventBus, RedisEventBus, type EventBus } from "../../events";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { buildOffersApp } from "../app";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";
import { createEventStream, type EventStream } from "./index";
import { collectSendQueues, readTcpTable, tcpRowOf, tcpTablesReadable } from "./transport/tcp-send-queue";
import { EventStreamParser, type StreamEvent } from "../../offers-client/sse";
import { createGameClient } from "../../offers-client";
import type { Offer } from "../contract";

const ADMIN = "test-admin-token-0123456789";
const redisUrl = process.env.TEST_REDIS_URL;

interface Server {
  ctx: OffersTestContext;
  stream: EventStream;
  base: string;
}

interface ServerOptions {
  staleTimeoutMs?: number;
  sampleMs?: number;
}

async function startServer(target: "pglite" | "postgres", bus: EventBus, opts: ServerOptions = {}): Promise<Server> {
  let clockNow = () => Date.now();
  const stream = createEventStream({
    bus,
    heartbeatMs: 100,
    staleTimeoutMs: opts.staleTimeoutMs ?? 60_000,
    sampleMs: opts.sampleMs,
    now: () => clockNow(),
  });
  const ctx = await startOffersTestApp(target, { eventStream: stream });
  clockNow = () => ctx.clock.now().getTime();
  await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  return { ctx, stream, base: `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/v1` };
}

/** Reads a stream with fetch, collecting events and comments. */
function openReader(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  let ended = false;
  const response = fetch(url, { headers: { Accept: "text/event-stream", ...headers }, signal: controller.signal });
  const done = response.then(async (res) => {
    if (!res.ok || !res.body) return res;
    const parser = new EventStreamParser((e) => events.push(e), (c) => comments.push(c));
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        parser.push(value);
      }
    } catch {
      // aborted
    }
    ended = true;
    return res;
  });
  return {
    response,
    events,
    comments,
    done,
    get ended() {
      return ended;
    },
    abort: () => controller.abort(),
  };
}

async function until(check: () => boolean, ms = 3_000, what = "condition") {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function defineOffers(ctx: OffersTestContext) {
  const headers = { ...ctx.apiHeaders(), "content-type": "application/json" };
  for (const [offerId, realTime] of [["live-1", true], ["live-2", true], ["live-3", true], ["quiet", false]] as const) {
    const res = await ctx.inject({
      method: "PUT",
      url: `/v1/offers/definitions/${offerId}`,
      headers,
      payload: {
        name: `Offer ${offerId}`,
        description: "test",
        rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 10 }],
        realTime,
        durationSeconds: 3600,
      },
    });
    expect(res.statusCode).toBe(200);
  }
}

async function assign(ctx: OffersTestContext, playerId: string, offerId: string): Promise<Offer> {
  const res = await ctx.post("/v1/player/offers/assign", { playerId, offerId }, ctx.apiHeaders());
  expect(res.status).toBe(200);
  return res.body as Offer;
}

/** Offers with a description of `size` bytes, published on the bus as the engine would, to each player. */
async function publishOffers(stream: EventStream, gameId: string, playerIds: string[], seqs: number[], size: number) {
  const description = "x".repeat(size);
  for (const seq of seqs) {
    for (const playerId of playerIds) {
      const at = new Date().toISOString();
      await stream.hub.publish({ gameId, playerId }, {
        kind: "offer_event", seq, type: "surfaced", instanceId: `i${seq}`, offerId: "o", fromStatus: null, toStatus: "surfaced",
        cause: "test", at, realTime: true,
        offer: { offerId: "o", instanceId: `i${seq}`, playerId, gameId, name: "n", description, status: "surfaced", rewards: [], createdAt: at, expiresAt: at },
      });
    }
  }
}

/** Server-side sockets of an app, with when each closed. */
function trackServerSockets(ctx: OffersTestContext) {
  const sockets: Array<{ socket: net.Socket; closedAt: number }> = [];
  ctx.app.server.on("connection", (socket: net.Socket) => {
    const entry = { socket, closedAt: 0 };
    socket.on("close", () => (entry.closedAt = Date.now()));
    sockets.push(entry);
  });
  return sockets;
}

/** A raw client that sends the stream request and reads nothing until told to. */
async function rawStreamClient(ctx: OffersTestContext, playerId: string) {
  const socket = net.connect((ctx.app.server.address() as AddressInfo).port, "127.0.0.1");
  socket.pause();
  const client = { socket, playerId, closed: false, received: 0 };
  socket.on("close", () => (client.closed = true)).on("error", () => {});
  socket.on("data", (chunk: Buffer) => (client.received += chunk.length));
  socket.pause();
  socket.write(`GET /v1/sse/connect HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${await ctx.jwt(playerId)}\r\nAccept: text/event-stream\r\n\r\n`);
  return client;
}

/** What the server side of a connection has not had acknowledged: the kernel's queue plus Node's buffer. */
async function outstanding(socket: net.Socket): Promise<{ kernel: number; node: number }> {
  const row = tcpRowOf(socket);
  const kernel = row ? (collectSendQueues(await readTcpTable(row.table), new Set([row.key])).get(row.key) ?? 0) : 0;
  return { kernel, node: socket.writableLength };
}

describe.each(testDatabaseTargets())("event stream on %s", (target) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function server(opts: ServerOptions = {}) {
    const bus = new MemoryEventBus();
    const s = await startServer(target, bus, opts);
    cleanups.push(async () => {
      await s.ctx.close();
      expect(bus.channelCount).toBe(0);
    });
    await defineOffers(s.ctx);
    return s;
  }

  /** One app for the cases of a describe that need nothing of their own; each case uses its own players. */
  function sharedServer(opts: ServerOptions = {}): () => Server {
    let shared: Server | undefined;
    const bus = new MemoryEventBus();
    beforeAll(async () => {
      shared = await startServer(target, bus, opts);
      await defineOffers(shared.ctx);
    });
    afterEach(async () => {
      // Every case leaves no stream behind, so the next one counts only its own.
      const hub = shared!.stream.hub;
      await until(() => hub.connectionCount === 0 && hub.watcherCount === 0, 3_000, "the case's streams closed");
    });
    afterAll(async () => {
      await shared?.ctx.close();
      expect(bus.channelCount).toBe(0);
    });
    return () => shared!;
  }

  describe("on one app", () => {
    const shared = sharedServer();

    it("answers CORS preflights of browser game clients", async () => {
      const { base } = shared();
      const preflight = await fetch(`${base}/client/player/campaigns`, {
        method: "OPTIONS",
        headers: { Origin: "https://game.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type" },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("https://game.example");
      expect(preflight.headers.get("access-control-allow-headers")).toContain("authorization");
    });

    it("refuses bad tokens with the JWT error codes", async () => {
      const { ctx, base } = shared();
      const none = await fetch(`${base}/sse/connect`, { headers: { Accept: "text/event-stream" } });
      expect(none.status).toBe(401);
      expect(await none.json()).toEqual({ message: "jwt-invalid" });
      const expired = await ctx.jwt("p1", { ttlSeconds: -60 });
      const res = await fetch(`${base}/sse/connect`, { headers: { Authorization: `Bearer ${expired}` } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: "jwt-expired" });
      const otherKey = await ctx.jwt("p1", { apiKey: "not-the-key-of-this-game" });
      const bad = await fetch(`${base}/sse/connect`, { headers: { Authorization: `Bearer ${otherKey}` } });
      expect(bad.status).toBe(401);
      expect(await bad.json()).toEqual({ message: "jwt-invalid" });
    });

    it("streams real-time offers with ids and heartbeats, and replays what was missed after Last-Event-ID", async () => {
      const { ctx, base, stream } = shared();
      const auth = { Authorization: `Bearer ${await ctx.jwt("p1")}` };
      const first = openReader(`${base}/sse/connect`, { ...auth, Origin: "https://game.example" });
      const res = await first.response;
      await until(() => first.comments.includes("connected"));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      expect(res.headers.get("cache-control")).toContain("no-cache");
      expect(res.headers.get("x-accel-buffering")).toBe("no");
      await until(() => stream.hub.connectionCount === 1);

      // A browser game client on another origin may read the stream (CORS), and sees the request id.
      expect(res.headers.get("access-control-allow-origin")).toBe("https://game.example");
      expect(res.headers.get("x-request-id")).toBeTruthy();
      const live = await assign(ctx, "p1", "live-1");
      await assign(ctx, "p1", "quiet"); // not real-time: never pushed
      await until(() => first.events.length === 1);
      const event = first.events[0]!;
      expect(event.event).toBe("offer_surfaced");
      const data = JSON.parse(event.data) as { offer: Offer };
      expect(Object.keys(data)).toEqual(["offer"]);
      expect(data.offer).toMatchObject({ instanceId: live.instanceId, status: "surfaced", playerId: "p1", gameId: ctx.game.gameId });
      expect(Number(event.id)).toBeGreaterThan(0);
      await until(() => first.comments.filter((c) => c === "heartbeat").length >= 2, 2_000, "two heartbeats");

      first.abort();
      await until(() => stream.hub.connectionCount === 0, 3_000, "cleanup after abort");
      const missed = await assign(ctx, "p1", "live-2");

      const second = openReader(`${base}/sse/connect`, { ...auth, "Last-Event-ID": event.id! });
      await until(() => second.events.length === 1);
      expect(JSON.parse(second.events[0]!.data).offer.instanceId).toBe(missed.instanceId);
      const third = await assign(ctx, "p1", "live-3"); // over the slot limit: queued, not surfaced
      expect(third.status).toBe("inQueue");
      await new Promise((r) => setTimeout(r, 200));
      expect(second.events).toHaveLength(1);
      expect(Number(second.events[0]!.id)).toBeGreaterThan(Number(event.id));
      second.abort();
    });

    it("keeps one connection per player: a newer one replaces the older", async () => {
      const { ctx, base, stream } = shared();
      const token = await ctx.jwt("p2");
      const older = openReader(`${base}/sse/connect`, { Authorization: `Bearer ${token}` });
      await until(() => stream.hub.connectionCount === 1);
      const newer = openReader(`${base}/sse/connect`, { Authorization: `Bearer ${token}` });
      await until(() => older.ended, 3_000, "older stream closed");
      await until(() => newer.comments.includes("connected"));
      expect(older.comments).toContain("replaced");
      expect(stream.hub.connectionCount).toBe(1);
      await assign(ctx, "p2", "live-1");
      await until(() => newer.events.length === 1);
      expect(older.events.map((e) => [e.event, e.id, e.data])).toEqual([["replaced", "replaced", '{"message":"stream-replaced"}']]);
      newer.abort();
      await until(() => stream.hub.connectionCount === 0);
    });

    it("closes the stream when the JWT expires", async () => {
      const { ctx, base, stream } = shared();
      const reader = openReader(`${base}/sse/connect`, { Authorization: `Bearer ${await ctx.jwt("p3", { ttlSeconds: 1 })}` });
      await until(() => stream.hub.connectionCount === 1);
      await until(() => reader.ended, 3_000, "closed at expiry");
      expect(stream.hub.connectionCount).toBe(0);
    });

    it("serves the admin API and a watch stream that does not take the player's connection", async () => {
      const { ctx, base, stream } = shared();
      const denied = await fetch(`${base}/admin/games`);
      expect(denied.status).toBe(401);
      const wrong = await fetch(`${base}/admin/games`, { headers: { Authorization: "Bearer nope" } });
      expect(wrong.status).toBe(401);
      const admin = { Authorization: `Bearer ${ADMIN}` };
      const games = (await (await fetch(`${base}/admin/games`, { headers: admin })).json()) as { games: Array<{ gameId: string }> };
      expect(games.games.map((g) => g.gameId)).toContain(ctx.game.gameId);

      const watchUrl = `${base}/admin/games/${ctx.game.gameId}/players/p4/watch`;
      const watcher = openReader(watchUrl, admin);
      await until(() => watcher.events.some((e) => e.event === "presence"));
      const player = openReader(`${base}/sse/connect`, { Authorization: `Bearer ${await ctx.jwt("p4")}` });
      await until(() => player.comments.includes("connected"));
      expect(stream.hub.watcherCount).toBe(1);
      const offer = await assign(ctx, "p4", "live-1");
      const view = await ctx.post("/v1/client/player/campaigns", { viewingCampaigns: true }, { Authorization: `Bearer ${await ctx.jwt("p4")}` });
      expect(view.status).toBe(200);
      await until(() => player.events.length === 1);
      player.abort();
      await until(() => watcher.events.filter((e) => e.event === "connection").length === 2, 3_000, "connection events");
      const types = watcher.events.map((e) => e.event);
      expect(types).toEqual(["presence", "connection", "surfaced", "viewed", "claimable", "connection"]);
      expect(JSON.parse(watcher.events[2]!.data)).toMatchObject({ instanceId: offer.instanceId, toStatus: "surfaced" });
      // Viewing moves it through two statuses at once; each step is its own event, with its own status.
      expect(JSON.parse(watcher.events[3]!.data)).toMatchObject({ fromStatus: "surfaced", toStatus: "viewed", offer: { status: "viewed" } });
      expect(JSON.parse(watcher.events[4]!.data)).toMatchObject({ fromStatus: "viewed", toStatus: "claimable", offer: { status: "claimable" } });

      const state = await fetch(`${base}/admin/games/${ctx.game.gameId}/players/p4`, { headers: admin });
      expect(state.status).toBe(200);
      const body = (await state.json()) as { offers: Array<{ instanceId: string; status: string; events: Array<{ type: string }> }>; connected: boolean };
      expect(body.connected).toBe(false);
      expect(body.offers[0]!.status).toBe("claimable");
      expect(body.offers[0]!.events.map((e) => e.type)).toEqual(["surfaced", "viewed", "claimable"]);
      const missing = await fetch(`${base}/admin/games/${ctx.game.gameId}/players/nobody`, { headers: admin });
      expect(missing.status).toBe(404);
      watcher.abort();
      await until(() => stream.hub.watcherCount === 0);
    });
  });

  describe("on one app that closes readers stalled for 1.5 s", () => {
    const shared = sharedServer({ staleTimeoutMs: 1_500, sampleMs: 200 });

    it.skipIf(!tcpTablesReadable())(
      "closes clients that read nothing while what they were sent sits in the kernel, not in Node, and frees everything",
      async () => {
        const staleTimeoutMs = 1_500;
        const sampleMs = 200;
        const { ctx, stream } = shared();
        const serverSockets = trackServerSockets(ctx);
        const openConnections = () => new Promise<number>((resolve) => ctx.app.server.getConnections((_e, n) => resolve(n)));
        const clients = await Promise.all(Array.from({ length: 20 }, (_, i) => rawStreamClient(ctx, `idle${i}`)));
        try {
          const players = clients.map((c) => c.playerId);
          await until(() => players.every((playerId) => stream.hub.isLive({ gameId: ctx.game.gameId, playerId })), 10_000, "streams live");
          // About 150 KB each: the client's kernel takes ~128 KB into its receive buffer and
          // acknowledges it; the rest waits in the server's kernel; Node's buffer stays empty.
          await publishOffers(stream, ctx.game.gameId, players, Array.from({ length: 20 }, (_, i) => i + 1), 7_500);
          expect(serverSockets).toHaveLength(clients.length);
          const inKernelOnly = async () => {
            const queues = await Promise.all(serverSockets.map(({ socket }) => outstanding(socket)));
            return queues.every(({ kernel, node }) => kernel > 0 && node === 0);
          };
          for (let tries = 0; !(await inKernelOnly()); tries++) {
            expect(tries, "the data never sat in the kernel alone").toBeLessThan(100);
            await new Promise((r) => setTimeout(r, 10));
          }
          const queuedAt = Date.now();
          const bound = staleTimeoutMs + 2 * sampleMs + 2_000;
          await until(() => serverSockets.every((s) => s.closedAt > 0), bound, "server closed every client that reads nothing");
          for (const { closedAt } of serverSockets) expect(closedAt - queuedAt).toBeLessThan(bound);
          // Reset, not a FIN behind the unread data: a client that reads again learns at once.
          for (const { socket } of clients) socket.resume();
          await until(() => clients.every((c) => c.closed), 3_000, "clients see the connection closed");
          expect(stream.hub.connectionCount).toBe(0);
          expect((stream.hub.options.bus as MemoryEventBus).channelCount).toBe(0);
          expect((stream.hub.options.bus as MemoryEventBus).reconnectListenerCount).toBe(0);
          expect(stream.hub.stallSampler.watching).toBe(0);
          await until(() => !stream.hub.stallSampler.running, 1_000, "sampler stopped");
          expect(await openConnections()).toBe(0);
        } finally {
          for (const { socket } of clients) socket.destroy();
        }
      },
      60_000,
    );

    it.skipIf(!tcpTablesReadable())("keeps a client that reads slowly but steadily while data waits for it", async () => {
      const staleTimeoutMs = 1_500;
      const { ctx, stream } = shared();
      const serverSockets = trackServerSockets(ctx);
      const client = await rawStreamClient(ctx, "slow-reader");
      const key = { gameId: ctx.game.gameId, playerId: client.playerId };
      try {
        await until(() => stream.hub.isLive(key), 10_000, "stream live");
        // More than the client's receive buffer holds, before it starts reading.
        let seq = 0;
        await publishOffers(stream, key.gameId, [key.playerId], Array.from({ length: 30 }, () => ++seq), 8_000);
        // Four stale timeouts: the client takes one chunk every 200 ms; the server keeps ~300 KB waiting for it.
        const reader = setInterval(() => {
          client.socket.once("data", () => client.socket.pause());
          client.socket.resume();
        }, 200);
        let looks = 0;
        let waiting = 0;
        try {
          for (const end = Date.now() + 4 * staleTimeoutMs; Date.now() < end; ) {
            const { kernel, node } = await outstanding(serverSockets[0]!.socket);
            looks++;
            if (kernel + node > 0) waiting++;
            // Topped up by more than the reader takes between two looks, even when a loaded machine makes looks slow.
            if (kernel + node < 300_000) await publishOffers(stream, key.gameId, [key.playerId], Array.from({ length: 12 }, () => ++seq), 8_000);
            await new Promise((r) => setTimeout(r, 20));
          }
        } finally {
          clearInterval(reader);
        }
        expect(serverSockets[0]!.closedAt).toBe(0);
        expect(client.closed).toBe(false);
        expect(stream.hub.isConnected(key)).toBe(true);
        expect(waiting / looks, `data waited for the client in ${waiting} of ${looks} looks`).toBeGreaterThan(0.8);
        expect(client.received).toBeGreaterThan(200_000);
      } finally {
        client.socket.destroy();
      }
      await until(() => stream.hub.connectionCount === 0, 3_000, "cleanup after the client left");
      await until(() => !stream.hub.stallSampler.running, 1_000, "sampler stopped");
    }, 60_000);

    it("keeps a client that reads everything and only gets heartbeats", async () => {
      const staleTimeoutMs = 1_500;
      const { ctx, base, stream } = shared();
      const reader = openReader(`${base}/sse/connect`, { Authorization: `Bearer ${await ctx.jwt("hb")}` });
      await until(() => reader.comments.includes("connected"));
      await new Promise((r) => setTimeout(r, 3 * staleTimeoutMs));
      expect(reader.ended).toBe(false);
      expect(reader.comments.filter((c) => c === "heartbeat").length).toBeGreaterThan(10);
      expect(stream.hub.connectionCount).toBe(1);
      reader.abort();
      await until(() => stream.hub.connectionCount === 0, 3_000, "cleanup after abort");
      await until(() => !stream.hub.stallSampler.running, 1_000, "sampler stopped");
    }, 60_000);
  });

  it("closes clients that read nothing within the stale timeout, and frees every socket and subscription", async () => {
    const staleTimeoutMs = 500;
    const { ctx, stream } = await server({ staleTimeoutMs });
    const serverSockets: Array<{ socket: net.Socket; closedAt: number }> = [];
    ctx.app.server.on("connection", (socket: net.Socket) => {
      const entry = { socket, closedAt: 0 };
      socket.on("close", () => (entry.closedAt = Date.now()));
      serverSockets.push(entry);
    });
    const port = (ctx.app.server.address() as AddressInfo).port;
    const openConnections = () => new Promise<number>((resolve) => ctx.app.server.getConnections((_e, n) => resolve(n)));

    // Raw sockets that send the request and never read the answer.
    const clients = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const socket = net.connect(port, "127.0.0.1");
        socket.pause();
        const client = { socket, playerId: `slow${i}`, closed: false };
        socket.on("close", () => (client.closed = true)).on("error", () => {});
        socket.write(`GET /v1/sse/connect HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${await ctx.jwt(client.playerId)}\r\nAccept: text/event-stream\r\n\r\n`);
        return client;
      }),
    );
    try {
      await until(() => clients.every(({ playerId }) => stream.hub.isLive({ gameId: ctx.game.gameId, playerId })), 10_000, "streams live");
      // Offers until every connection has data its client did not take, beyond what the kernel buffers hold.
      const description = "x".repeat(64 * 1024);
      const backedUp = () => serverSockets.every(({ socket }) => socket.destroyed || socket.writableLength > 0);
      for (let seq = 1; !backedUp(); seq++) {
        expect(seq, "connections never backed up").toBeLessThan(1_000);
        for (const { playerId } of clients) {
          await stream.hub.publish({ gameId: ctx.game.gameId, playerId }, {
            kind: "offer_event", seq, type: "surfaced", instanceId: `i${seq}`, offerId: "o", fromStatus: null, toStatus: "surfaced",
            cause: "test", at: new Date().toISOString(), realTime: true,
            offer: { offerId: "o", instanceId: `i${seq}`, playerId, gameId: ctx.game.gameId, name: "n", description, status: "surfaced", rewards: [], createdAt: new Date().toISOString(), expiresAt: new Date().toISOString() },
          });
        }
        await new Promise((r) => setImmediate(r));
      }
      const queuedAt = Date.now();
      // The server closes each connection itself (the clients never close theirs).
      expect(serverSockets).toHaveLength(clients.length);
      await until(() => serverSockets.every((s) => s.closedAt > 0), staleTimeoutMs + 5_000, "server closed every stalled connection");
      for (const { closedAt } of serverSockets) expect(closedAt - queuedAt).toBeLessThan(staleTimeoutMs + 5_000);
      // Abortively: what was queued is dropped, so a client that reads again soon learns the stream is gone.
      for (const { socket } of clients) socket.resume();
      await until(() => clients.every((c) => c.closed), 3_000, "clients see the connection closed");
      expect(stream.hub.connectionCount).toBe(0);
      expect((stream.hub.options.bus as MemoryEventBus).channelCount).toBe(0);
      expect((stream.hub.options.bus as MemoryEventBus).reconnectListenerCount).toBe(0);
      expect(await openConnections()).toBe(0);
    } finally {
      for (const { socket } of clients) socket.destroy();
    }
  });

  it("open streams keep no request or response alive, Fastify's or node:http's (memory per stream)", async () => {
    const bus = new MemoryEventBus();
    let clockNow = () => Date.now();
    const stream = createEventStream({ bus, heartbeatMs: 100, staleTimeoutMs: 60_000, now: () => clockNow() });
    const requests: Array<WeakRef<object>> = [];
    // The hook goes on the app as Fastify creates it (its diagnostics channel), before any route.
    const hookRequests = (message: unknown) => {
      (message as { fastify: FastifyInstance }).fastify.addHook("onRequest", async (request, reply) => {
        if (request.url.startsWith("/v1/sse/")) requests.push(new WeakRef(request), new WeakRef(reply), new WeakRef(request.raw), new WeakRef(reply.raw));
      });
    };
    diagnostics_channel.subscribe("fastify.initialization", hookRequests);
    const ctx = await startOffersTestApp(target, { eventStream: stream }).finally(() => diagnostics_channel.unsubscribe("fastify.initialization", hookRequests));
    clockNow = () => ctx.clock.now().getTime();
    cleanups.push(() => ctx.close());
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/v1`;
    const readers = await Promise.all(["gc1", "gc2", "gc3", "gc4", "gc5", "gc6"].map(async (p) => openReader(`${base}/sse/connect`, { Authorization: `Bearer ${await ctx.jwt(p)}` })));
    const statuses = await Promise.all(readers.map(async (r) => (await r.response).status));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    await until(() => readers.every((r) => r.comments.includes("heartbeat")), 5_000, `heartbeats (${readers.map((r) => r.comments.join("/")).join(" | ")})`);
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    for (let i = 0; i < 10 && requests.some((r) => r.deref()); i++) {
      gc();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(requests).toHaveLength(24);
    // One request of the app (the first) stays reachable from something Fastify or a plugin keeps
    // after its first call; what matters is that nothing grows with the open streams.
    expect(requests.filter((r) => r.deref() !== undefined).length).toBeLessThanOrEqual(2);
    // The streams are alive and served, and closing them frees them.
    expect(stream.hub.connectionCount).toBe(6);
    for (const reader of readers) reader.abort();
    await until(() => stream.hub.connectionCount === 0, 3_000, "cleanup after abort");
    expect(bus.channelCount).toBe(0);
  }, 30_000);

  it("the SDK resumes across a server restart with no event lost and none repeated", async () => {
    const bus = new MemoryEventBus();
    const first = await startServer(target, bus);
    await defineOffers(first.ctx);
    const port = (first.ctx.app.server.address() as AddressInfo).port;
    const received: Offer[] = [];
    const states: string[] = [];
    const client = createGameClient({ baseUrl: first.base, getJwt: () => first.ctx.jwt("sdk") });
    const handle = client.connectStream({ onOffer: (offer) => received.push(offer), onStateChange: (s) => states.push(s.status) });
    let restarted: Awaited<ReturnType<typeof buildOffersApp>> | undefined;
    const second = createEventStream({ bus, heartbeatMs: 100, staleTimeoutMs: 60_000, now: () => first.ctx.clock.now().getTime() });
    cleanups.push(async () => {
      handle.close();
      await restarted?.close();
      await first.ctx.database.close();
    });
    try {
      await until(() => first.stream.hub.isLive({ gameId: first.ctx.game.gameId, playerId: "sdk" }));
      const a = await assign(first.ctx, "sdk", "live-1");
      await until(() => received.length === 1);

      // Restart: the first server goes away; an offer surfaces while the client is disconnected.
      await first.ctx.app.close();
      restarted = await buildOffersApp({
        database: first.ctx.database,
        secretKey: first.ctx.secretKey,
        adminToken: ADMIN,
        clock: first.ctx.clock,
        eventStream: second,
      });
      await restarted.ready();
      const during = await restarted.inject({
        method: "POST",
        url: "/v1/player/offers/assign",
        headers: { ...first.ctx.apiHeaders(), "content-type": "application/json" },
        payload: { playerId: "sdk", offerId: "live-2" },
      });
      expect(during.statusCode).toBe(200);
      await restarted.listen({ port, host: "127.0.0.1" });
      await until(() => received.length === 2, 10_000, "missed offer after restart");
      const c = await restarted.inject({
        method: "POST",
        url: "/v1/player/offers/assign",
        headers: { ...first.ctx.apiHeaders(), "content-type": "application/json" },
        payload: { playerId: "sdk", offerId: "live-3" },
      });
      expect(c.statusCode).toBe(200);
      await until(() => received.length === 3, 3_000, "live offer after resume");
      await new Promise((r) => setTimeout(r, 200));
      expect(received.map((o) => o.instanceId)).toEqual([a.instanceId, JSON.parse(during.body).instanceId, JSON.parse(c.body).instanceId]);
      expect(states).toContain("reconnecting");
    } finally {
      handle.close();
    }
  });
});

describe.each(testDatabaseTargets())("two offers instances on %s", (target) => {
  it("an offer surfaced through instance A reaches a client connected to instance B", async () => {
    const prefix = `test:${randomBytes(4).toString("hex")}:`;
    const buses: EventBus[] = redisUrl
      ? [new RedisEventBus({ url: redisUrl, prefix }), new RedisEventBus({ url: redisUrl, prefix })]
      : [new MemoryEventBus()];
    if (redisUrl) await Promise.all(buses.map((b) => (b as RedisEventBus).ready()));
    const a = await startServer(target, buses[0]!);
    await defineOffers(a.ctx);
    // Instance B: its own process state (hub, engine, bus connection), the same database.
    const streamB = createEventStream({ bus: buses[1] ?? buses[0]!, heartbeatMs: 100, staleTimeoutMs: 60_000, now: () => a.ctx.clock.now().getTime() });
    const b = await buildOffersApp({ database: a.ctx.database, secretKey: a.ctx.secretKey, adminToken: ADMIN, clock: a.ctx.clock, eventStream: streamB, checkResponses: true });
    await b.listen({ port: 0, host: "127.0.0.1" });
    try {
      const baseB = `http://127.0.0.1:${(b.server.address() as AddressInfo).port}/v1`;
      const reader = openReader(`${baseB}/sse/connect`, { Authorization: `Bearer ${await a.ctx.jwt("x1")}` });
      await until(() => reader.comments.includes("connected"));
      const offer = await assign(a.ctx, "x1", "live-1");
      await until(() => reader.events.length === 1, 3_000, "cross-instance delivery");
      expect(JSON.parse(reader.events[0]!.data).offer.instanceId).toBe(offer.instanceId);
      // Instance A knows the player is online although the stream is held by B.
      const state = await fetch(`${a.base}/admin/games/${a.ctx.game.gameId}/players/x1`, { headers: { Authorization: `Bearer ${ADMIN}` } });
      expect(((await state.json()) as { connected: boolean }).connected).toBe(true);

      // One connection per player across instances: connecting on A replaces the one on B.
      const onA = openReader(`${a.base}/sse/connect`, { Authorization: `Bearer ${await a.ctx.jwt("x1")}` });
      await until(() => reader.ended, 3_000, "B's connection replaced");
      expect(reader.comments).toContain("replaced");
      expect(a.stream.hub.connectionCount).toBe(1);
      onA.abort();
    } finally {
      await b.close();
      await a.ctx.close();
      await Promise.all(buses.map((bus) => bus.close()));
    }
  });
});
