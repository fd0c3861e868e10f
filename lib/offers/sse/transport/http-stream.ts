/**
 * A long-lived text/event-stream response over Fastify's raw reply (the player's stream and the admin watch).
 *
 * Once the head is written the stream takes the TCP connection over from node:http, as Node itself
 * does for an upgraded connection: the request, the response, the parser and the server's
 * per-connection closures are let go, and events are written to the socket as they are. What an
 * open stream then holds is the socket and the hub's connection: 2 KB of memory instead of 9 KB
 * (bench/sse), since every held stream would otherwise keep a finished request alive. On the
 * wire nothing changes: the body is chunked and the connection keep-alive, as node:http would
 * send them, and after the last chunk the connection waits for the client's next request, as after
 * any response: clients put it back in their pool the moment the body ends, and a request sent on a
 * connection the server closes just then fails. (Undici's fetch, the SDK's, keeps a stray
 * connection open after aborting a response sent with Connection: close, so the head says keep-alive.)
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyReply } from "fastify";
import type { SseSink } from "./types";

const streamHeaders = {
  // Exactly the MIME type (the stream is UTF-8 by definition): clients that compare it as a string,
  // like fetch-event-source's documented onopen, would otherwise treat every stream as an error.
  "Content-Type": "text/event-stream",
  // no-transform: proxies (and Next) must not compress or buffer the stream.
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
};

const LAST_CHUNK = "0\r\n\r\n";
let lastText = "";
let lastFrame = "";

/** A chunk of the chunked body; the last one framed is kept, as every stream writes the same heartbeat. */
function chunkFrame(text: string): string {
  if (text !== lastText) {
    lastFrame = `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
    lastText = text;
  }
  return lastFrame;
}

/** Writes the chunked body to the socket taken over from node:http. */
class SocketSink implements SseSink {
  /** The stream's own listeners on the connection's close, taken off when the connection outlives it. */
  private closeListeners: (() => void)[] | undefined;

  constructor(readonly socket: Socket) {}

  onClose(listener: () => void): void {
    (this.closeListeners ??= []).push(listener);
    this.socket.on("close", listener);
  }

  write(chunk: string, flushed: () => void): void {
    this.socket.write(chunkFrame(chunk), flushed);
  }

  end(finished: () => void): void {
    const socket = this.socket;
    const server = (socket as Socket & { server?: Server }).server;
    if (!server?.listening || closingServers.has(server) || "encrypted" in socket) {
      // The descriptor goes once the last chunk is with the kernel.
      socket.end(LAST_CHUNK, () => {
        socket.destroy();
        finished();
      });
      return;
    }
    for (const listener of this.closeListeners ?? []) socket.removeListener("close", listener);
    this.closeListeners = undefined;
    // Before the last chunk leaves: the client may answer it with its next request at once.
    awaitNextRequest(socket, server);
    socket.write(LAST_CHUNK, () => finished());
  }

  destroy(): void {
    // A reset, not a FIN: the FIN would wait behind the unread data in the kernel, keeping it for minutes.
    if (!this.socket.destroyed) this.socket.resetAndDestroy();
  }
}

/** Writes through node:http's response: requests whose connection is not taken over (HTTP/1.0, HEAD, inject()). */
class ResponseSink implements SseSink {
  constructor(private readonly raw: ServerResponse) {}

  get socket() {
    return this.raw.socket ?? undefined;
  }

  write(chunk: string, flushed: () => void): void {
    this.raw.write(chunk, flushed);
  }

  end(finished: () => void): void {
    this.raw.end(finished);
  }

  destroy(): void {
    const socket = this.raw.socket;
    if (socket && !socket.destroyed) socket.resetAndDestroy();
    else this.raw.destroy();
  }
}

interface HttpParser {
  incoming: IncomingMessage | null;
}
type FreeParser = (parser: HttpParser, request: IncomingMessage, socket: Socket) => void;

/** node:http's own release of a connection's parser, the one it uses when a connection is upgraded. */
const freeParser = (process.getBuiltinModule("_http_common") as { freeParser?: FreeParser } | undefined)?.freeParser;

/**
 * node:http's listeners on a server connection (names as Node 20–24 give them), all of which feed
 * or watch the parser. The stream takes the socket over only if all of them are found and nothing
 * else reads the socket's data: an unknown reader could still hand bytes to a parser that is gone.
 */
const serverListeners: Record<string, readonly string[]> = {
  data: ["bound socketOnData"],
  end: ["bound socketOnEnd"],
  close: ["bound socketOnClose"],
  drain: ["bound socketOnDrain"],
  error: ["socketOnError"],
  timeout: ["socketOnTimeout"],
  resume: ["onSocketResume"],
  pause: ["onSocketPause"],
};

function takeoverPossible(request: IncomingMessage, socket: Socket | null): socket is Socket {
  if (!freeParser || !socket || request.method !== "GET" || request.httpVersion !== "1.1" || !request.complete) return false;
  if ((socket as Socket & { parser?: HttpParser | null }).parser?.incoming !== request) return false;
  for (const [event, names] of Object.entries(serverListeners)) {
    const found = socket.listeners(event).map((listener) => listener.name);
    if (!names.every((name) => found.includes(name))) return false;
  }
  return socket.listenerCount("data") === 1 && socket.listenerCount("readable") === 0;
}

// Shared by every taken-over socket, so that a stream costs no closures of its own.
function discard(): void {}
function closeOnEnd(this: Socket): void {
  // The client has stopped sending: it has gone, and nothing it would read is left to write.
  this.destroy();
}

/** Connections whose stream has ended, waiting for the client's next request. */
const waitingConnections = new Set<Socket>();
/** Servers shutting down: their streams' connections close after the last chunk. */
const closingServers = new WeakSet<Server>();

/**
 * After the last chunk the connection waits, idle, as node:http keeps one after a response: until
 * the server's keep-alive timeout, the client's close, or the next request, which hands the
 * connection back to node:http with the request's first bytes. The head announces no timeout
 * (node:http leaves it out beside a Connection header): clients keep it by their own, shorter ones.
 */
function awaitNextRequest(socket: Socket, server: Server): void {
  socket.removeListener("data", discard);
  socket.on("data", handBackWithRequest);
  socket.on("timeout", closeIdle);
  socket.on("close", forgetWaiting);
  socket.setTimeout(server.keepAliveTimeout);
  waitingConnections.add(socket);
}

function handBackWithRequest(this: Socket, firstBytes: Buffer): void {
  const server = (this as Socket & { server: Server }).server;
  this.removeListener("data", handBackWithRequest);
  this.removeListener("end", closeOnEnd);
  this.removeListener("error", discard);
  this.removeListener("timeout", closeIdle);
  this.removeListener("close", forgetWaiting);
  waitingConnections.delete(this);
  this.setTimeout(0);
  if (closingServers.has(server) || !server.listening) {
    this.destroy();
    return;
  }
  // What node:http does for every new connection (a parser, its listeners, its timeouts); then the
  // bytes that came, which this listener took before node:http's was there.
  server.emit("connection", this);
  this.emit("data", firstBytes);
}

function closeIdle(this: Socket): void {
  this.destroy();
}

function forgetWaiting(this: Socket): void {
  waitingConnections.delete(this);
}

/**
 * The server is shutting down: streams ending from now on close their connection, and connections
 * waiting after a stream for a next request close now (node:http's own close does not know them,
 * and would wait for them).
 */
export function closeStreamConnections(server: Server): void {
  closingServers.add(server);
  for (const socket of waitingConnections) {
    if ((socket as Socket & { server?: Server }).server === server) socket.destroy();
  }
}

/** Releases node:http's hold on the connection, as an upgrade does. */
function takeOver(raw: ServerResponse, request: IncomingMessage, socket: Socket): void {
  raw.detachSocket(socket);
  freeParser!((socket as Socket & { parser: HttpParser }).parser, request, socket);
  for (const [event, names] of Object.entries(serverListeners)) {
    for (const listener of socket.listeners(event)) {
      if (names.includes(listener.name)) socket.removeListener(event, listener as () => void);
    }
  }
  socket.setTimeout(0);
  // Reading on (and dropping what comes) is how the client's close is seen.
  socket.on("data", discard);
  socket.on("end", closeOnEnd);
  socket.on("error", discard);
}

/** Takes over the raw response for a long-lived stream; a channel (channel.ts) writes through the sink. */
export function openStream(reply: FastifyReply): { sink: SseSink; onClose(listener: () => void): void } {
  reply.hijack();
  const raw = reply.raw;
  const request = reply.request.raw;
  const socket = raw.socket;
  // Headers set by hooks (CORS, request id) are not sent for a hijacked reply unless passed on here.
  const hookHeaders = Object.fromEntries(
    Object.entries(reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined),
  );
  // node:http writes the head either way (its validation, Date, Transfer-Encoding: chunked).
  raw.writeHead(200, { ...hookHeaders, "x-request-id": reply.request.id, ...streamHeaders });
  if (!takeoverPossible(request, socket)) {
    // inject()'s stand-in socket has no Nagle to turn off.
    (raw.socket as Partial<Socket> | null)?.setNoDelay?.(true);
    return { sink: new ResponseSink(raw), onClose: (listener) => raw.on("close", listener) };
  }
  raw.flushHeaders();
  socket.setNoDelay(true);
  takeOver(raw, request, socket);
  const sink = new SocketSink(socket);
  return { sink, onClose: (listener) => sink.onClose(listener) };
}
