/** A long-lived text/event-stream response over Fastify's raw reply (the player's stream and the admin watch). */
import type { ServerResponse } from "node:http";
import type { FastifyReply } from "fastify";
import type { SseSink } from "./hub";

const streamHeaders = {
  // Exactly the MIME type (the stream is UTF-8 by definition): clients that compare it as a string,
  // like fetch-event-source's documented onopen, would otherwise treat every stream as an error.
  "Content-Type": "text/event-stream",
  // no-transform: proxies (and Next) must not compress or buffer the stream.
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
};

/**
 * The sink of one stream: a class, so an open stream costs one small object rather than a closure
 * per method.
 */
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
    // A reset, not a FIN: the FIN would wait behind the unread data in the kernel, keeping it for minutes.
    const socket = this.raw.socket;
    if (socket && !socket.destroyed) socket.resetAndDestroy();
    else this.raw.destroy();
  }
}

/** Stands in for Fastify's error listener on a stream's response: the hub sees a failed socket by its close. */
function ignoreResponseError(): void {}

/**
 * Fastify's response listeners ("finish" and "error", both its `onResFinished`, which runs the
 * onResponse hooks and logs "request completed") hold its request, reply and the request's child
 * logger for as long as the response lives: 1.4 KB of heap per open stream. A stream is not a
 * request whose duration means anything, so they are taken off. The "error" listener is replaced
 * rather than removed: deleting the last key of the response's listener table would turn it into a
 * dictionary, 280 bytes more per stream.
 */
function detachFromFastify(raw: ServerResponse): void {
  raw.on("error", ignoreResponseError);
  for (const event of ["finish", "error"] as const) {
    for (const listener of raw.listeners(event)) {
      if (listener.name === "onResFinished") raw.removeListener(event, listener as () => void);
    }
  }
}

/** Takes over the raw response for a long-lived stream; the hub writes through the sink. */
export function openStream(reply: FastifyReply): { sink: SseSink; onClose(listener: () => void): void } {
  reply.hijack();
  const raw = reply.raw;
  // Headers set by hooks (CORS, request id) are not sent for a hijacked reply unless passed on here.
  const hookHeaders = Object.fromEntries(
    Object.entries(reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined),
  );
  raw.writeHead(200, { ...hookHeaders, "x-request-id": reply.request.id, ...streamHeaders });
  // Node keeps the response head for the response's life as the string it built line by line: a
  // chain of some 40 concatenated pieces, about 1 KB per open stream. Reading a character of it
  // makes V8 flatten it in place into one string of its length.
  const head = (raw as ServerResponse & { _header?: unknown })._header;
  if (typeof head === "string") head.charCodeAt(0);
  raw.socket?.setNoDelay(true);
  detachFromFastify(raw);
  return {
    sink: new ResponseSink(raw),
    onClose: (listener) => raw.on("close", listener),
  };
}
