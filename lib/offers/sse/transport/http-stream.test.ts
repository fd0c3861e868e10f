import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import type { SseSink } from "./types";
import { closeStreamConnections, openStream } from "./http-stream";

/** A server whose one route opens a stream and hands its sink to the test. */
async function streamServer(setup?: (app: FastifyInstance) => void): Promise<{ app: FastifyInstance; port: number; opened: Promise<{ sink: SseSink; closed: Promise<void> }> }> {
  const app = Fastify();
  let resolve!: (value: { sink: SseSink; closed: Promise<void> }) => void;
  const opened = new Promise<{ sink: SseSink; closed: Promise<void> }>((r) => (resolve = r));
  app.addHook("onRequest", async (_request, reply) => {
    reply.header("access-control-allow-origin", "https://game.example");
  });
  // As the service's: streams ending from shutdown on close their connections.
  app.addHook("preClose", async () => closeStreamConnections(app.server));
  app.get("/health", async () => ({ status: "ok" }));
  app.get("/stream", async (_request, reply) => {
    // As the real routes: the stream opens after an awaited step (the JWT check).
    await new Promise((r) => setTimeout(r, 1));
    const stream = openStream(reply);
    resolve({ sink: stream.sink, closed: new Promise<void>((r) => stream.onClose(r)) });
  });
  setup?.(app);
  await app.listen({ port: 0, host: "127.0.0.1" });
  return { app, port: (app.server.address() as AddressInfo).port, opened };
}

/** Everything the server sends on one connection until it closes it; `sofar` until then. */
function rawExchange(port: number, request: string): { socket: Socket; received: Promise<string>; sofar(): string } {
  const socket = connect(port, "127.0.0.1", () => socket.write(request));
  const chunks: Buffer[] = [];
  socket.on("data", (chunk) => chunks.push(chunk));
  const received = new Promise<string>((resolve, reject) => {
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
  return { socket, received, sofar: () => Buffer.concat(chunks).toString("utf8") };
}

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} not seen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const flushedWrite = (sink: SseSink, text: string) => new Promise<void>((r) => sink.write(text, r));

describe("openStream", () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  it("sends a chunked body framed by bytes, hook headers included, then serves the client's next request on the same connection", async () => {
    const { app, port, opened } = await streamServer();
    apps.push(app);
    const exchange = rawExchange(port, "GET /stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n");
    const { sink } = await opened;
    // Multi-byte text: a chunk's size counts bytes, not characters.
    await flushedWrite(sink, 'data: {"name":"Épée 🎁"}\n\n');
    await flushedWrite(sink, ":heartbeat\n\n");
    await flushedWrite(sink, ":heartbeat\n\n");
    await new Promise<void>((r) => sink.end(r));
    await until(() => exchange.sofar().endsWith("0\r\n\r\n"), "the last chunk");
    const text = exchange.sofar();
    // As a client whose pool hands the connection to its next request the moment the body ends.
    exchange.socket.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    await until(() => exchange.sofar().length > text.length && exchange.sofar().endsWith('{"status":"ok"}'), "the next answer");
    expect(exchange.sofar().slice(text.length)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    exchange.socket.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    await until(() => exchange.sofar().split("HTTP/1.1 200 OK").length === 4, "a third answer");
    exchange.socket.end();
    await exchange.received;
    const head = text.split("\r\n\r\n", 1)[0]!;
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head.toLowerCase()).toContain("content-type: text/event-stream");
    expect(head.toLowerCase()).toContain("transfer-encoding: chunked");
    expect(head.toLowerCase()).toContain("connection: keep-alive");
    // No Keep-Alive timeout (see http-stream.ts): clients keep the connection by their own, shorter one.
    expect(head.toLowerCase()).not.toContain("keep-alive: timeout");
    expect(head.toLowerCase()).toContain("access-control-allow-origin: https://game.example");
    expect(head.toLowerCase()).toMatch(/x-request-id: \S+/);
    const payload = 'data: {"name":"Épée 🎁"}\n\n';
    expect(text.slice(head.length + 4)).toBe(
      `${Buffer.byteLength(payload).toString(16)}\r\n${payload}\r\n` + "c\r\n:heartbeat\n\n\r\n".repeat(2) + "0\r\n\r\n",
    );
  });

  it("sees the client go when it closes the connection, and a destroyed sink closes it", async () => {
    const { app, port, opened } = await streamServer();
    apps.push(app);
    const first = rawExchange(port, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    const stream = await opened;
    await flushedWrite(stream.sink, ":connected\n\n");
    first.socket.end();
    await stream.closed;
    await first.received;

    const again = await streamServer();
    apps.push(again.app);
    const second = rawExchange(again.port, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    const other = await again.opened;
    other.sink.destroy();
    await other.closed;
    await second.received.catch(() => "reset");
  });

  it("answers over node:http's response where the connection cannot be taken over (HTTP/1.0, inject)", async () => {
    const { app, port, opened } = await streamServer();
    apps.push(app);
    const { received } = rawExchange(port, "GET /stream HTTP/1.0\r\nHost: x\r\n\r\n");
    const { sink } = await opened;
    await flushedWrite(sink, "data: one\n\n");
    await new Promise<void>((r) => sink.end(r));
    const text = await received;
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    // HTTP/1.0 has no chunked encoding: the body is what was written, ended by the close.
    expect(text.toLowerCase()).not.toContain("transfer-encoding");
    expect(text.endsWith("\r\n\r\ndata: one\n\n")).toBe(true);

    const injected = await streamServer();
    apps.push(injected.app);
    const response = injected.app.inject({ method: "GET", url: "/stream" });
    const stream = await injected.opened;
    await flushedWrite(stream.sink, "data: two\n\n");
    stream.sink.end(() => {});
    const result = await response;
    expect(result.statusCode).toBe(200);
    expect(result.body).toBe("data: two\n\n");
  });

  it("lets fetch go on with one connection through streams that end and requests between them", async () => {
    const sinks: SseSink[] = [];
    const clientPorts = new Set<number>();
    const { app, port } = await streamServer((app) => {
      app.addHook("onRequest", async (request) => void clientPorts.add(request.raw.socket.remotePort!));
      app.get("/short", async (_request, reply) => {
        const stream = openStream(reply);
        sinks.push(stream.sink);
        stream.sink.write(":hello\n\n", () => stream.sink.end(() => {}));
      });
    });
    apps.push(app);
    // Node's fetch, as the SDK and a game server use it: its pool hands an idle connection to the next request.
    for (let round = 0; round < 30; round += 1) {
      const stream = await fetch(`http://127.0.0.1:${port}/short`);
      expect(await stream.text()).toBe(":hello\n\n");
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(await health.json()).toEqual({ status: "ok" });
    }
    expect(sinks).toHaveLength(30);
    // Each stream's end left its connection to a next request, as any response does (fetch holds two
    // here: it asks for the next one a moment before the last has gone back to its pool). A
    // connection closed after every stream would make it 31.
    expect(clientPorts.size).toBeLessThanOrEqual(3);
  });

  it("closes a connection its stream left after the keep-alive timeout, or when the server shuts down", async () => {
    const { app, port, opened } = await streamServer();
    apps.push(app);
    app.server.keepAliveTimeout = 300;
    const idle = rawExchange(port, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    const first = await opened;
    await new Promise<void>((r) => first.sink.end(r));
    const started = Date.now();
    expect(await idle.received).toMatch(/0\r\n\r\n$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);

    const again = await streamServer();
    const waiting = rawExchange(again.port, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    const second = await again.opened;
    await new Promise<void>((r) => second.sink.end(r));
    await until(() => waiting.sofar().endsWith("0\r\n\r\n"), "the last chunk");
    // The keep-alive timeout is 72 s here: only the shutdown can close it in time.
    await again.app.close();
    await waiting.received;
  });

  it("closes the connection after the last chunk once the server is shutting down", async () => {
    const { app, port, opened } = await streamServer();
    apps.push(app);
    const exchange = rawExchange(port, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    const { sink, closed } = await opened;
    closeStreamConnections(app.server);
    await new Promise<void>((r) => sink.end(r));
    expect(await exchange.received).toMatch(/0\r\n\r\n$/);
    await closed;
  });
});
