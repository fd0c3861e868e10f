import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import type { SseSink } from "./hub";
import { openStream } from "./http-stream";

/** A server whose one route opens a stream and hands its sink to the test. */
async function streamServer(): Promise<{ app: FastifyInstance; port: number; opened: Promise<{ sink: SseSink; closed: Promise<void> }> }> {
  const app = Fastify();
  let resolve!: (value: { sink: SseSink; closed: Promise<void> }) => void;
  const opened = new Promise<{ sink: SseSink; closed: Promise<void> }>((r) => (resolve = r));
  app.addHook("onRequest", async (_request, reply) => {
    reply.header("access-control-allow-origin", "https://game.example");
  });
  app.get("/stream", async (_request, reply) => {
    // As the real routes: the stream opens after an awaited step (the JWT check).
    await new Promise((r) => setTimeout(r, 1));
    const stream = openStream(reply);
    resolve({ sink: stream.sink, closed: new Promise<void>((r) => stream.onClose(r)) });
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  return { app, port: (app.server.address() as AddressInfo).port, opened };
}

/** Everything the server sends on one connection until it closes it. */
function rawExchange(port: number, request: string): { socket: Socket; received: Promise<string> } {
  const socket = connect(port, "127.0.0.1", () => socket.write(request));
  const chunks: Buffer[] = [];
  socket.on("data", (chunk) => chunks.push(chunk));
  const received = new Promise<string>((resolve, reject) => {
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
  return { socket, received };
}

const flushedWrite = (sink: SseSink, text: string) => new Promise<void>((r) => sink.write(text, r));

describe("openStream", () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  it("sends a chunked body framed by bytes, hook headers included, and closes the connection after the last chunk", async () => {
    const { app, port, opened } = await streamServer();
    apps.push(app);
    const { received } = rawExchange(port, "GET /stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n");
    const { sink, closed } = await opened;
    // Multi-byte text: a chunk's size counts bytes, not characters.
    await flushedWrite(sink, 'data: {"name":"Épée 🎁"}\n\n');
    await flushedWrite(sink, ":heartbeat\n\n");
    await flushedWrite(sink, ":heartbeat\n\n");
    await new Promise<void>((r) => sink.end(r));
    const text = await received;
    await closed;
    const head = text.split("\r\n\r\n", 1)[0]!;
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head.toLowerCase()).toContain("content-type: text/event-stream");
    expect(head.toLowerCase()).toContain("transfer-encoding: chunked");
    expect(head.toLowerCase()).toContain("connection: keep-alive");
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
});
