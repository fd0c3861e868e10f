/** A long-lived text/event-stream response over Fastify's raw reply (the player's stream and the admin watch). */
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

/** Takes over the raw response for a long-lived stream; the hub writes through the sink. */
export function openStream(reply: FastifyReply): { sink: SseSink; onClose(listener: () => void): void } {
  reply.hijack();
  const raw = reply.raw;
  // Headers set by hooks (CORS, request id) are not sent for a hijacked reply unless passed on here.
  const hookHeaders = Object.fromEntries(
    Object.entries(reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined),
  );
  raw.writeHead(200, { ...hookHeaders, "x-request-id": reply.request.id, ...streamHeaders });
  raw.socket?.setNoDelay(true);
  return {
    sink: {
      write: (chunk, flushed) => void raw.write(chunk, flushed),
      end: (finished) => void raw.end(finished),
      // A reset, not a FIN: the FIN would wait behind the unread data in the kernel, keeping it for minutes.
      destroy: () => void (raw.socket && !raw.socket.destroyed ? raw.socket.resetAndDestroy() : raw.destroy()),
      socket: raw.socket ?? undefined,
    },
    onClose: (listener) => raw.on("close", listener),
  };
}
