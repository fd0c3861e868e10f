/**
 * The event streams' transport as the hub sees it: a channel per open stream that writes the events
 * and comments of text/event-stream, tells when its client has stopped reading, and closes. It
 * carries text and knows nothing of what the text is about (no players, offers or games).
 */
import type { SampledSocket } from "./stall-sampler";
import type { SocketAddresses } from "./tcp-send-queue";

/** Where a channel writes (the HTTP response taken over by http-stream.ts; a fake in tests). */
export interface SseSink {
  /** Queues a chunk; `flushed` runs once the connection has taken it (handed it to the network). */
  write(chunk: string, flushed: () => void): void;
  /** Ends the response after what is queued; `finished` runs once the connection has taken all of it. */
  end(finished: () => void): void;
  /** Closes the connection at once, dropping whatever is still queued. */
  destroy(): void;
  /** The TCP socket underneath, if any: its kernel send queue shows a client that stopped reading. */
  readonly socket?: SampledSocket;
}

/** One message of text/event-stream: an event (`id:` when given, `event:`, `data:` as JSON), or a comment. */
export type SseMessage =
  | { event: string; data: unknown; id?: number | string }
  /** `:comment`, which clients ignore; `retryMs` also sets a standard client's reconnection delay (`retry:`). */
  | { comment: string; retryMs?: number };

/** Where the data a client has not taken was seen waiting for the stale timeout. */
export type StallReport =
  /** Chunks handed to the connection that it has not taken (Node's buffer is full). */
  | { seenIn: "node" }
  /** The kernel's send queue, sampled (stall-sampler.ts): Node's buffer may still be empty. */
  | { seenIn: "kernel"; kernelQueuedBytes: number; nodeQueuedBytes: number };

/** Told what happens to a channel's client. */
export interface ChannelListener {
  /** The client has read nothing for the stale timeout while the channel is open (at most once: close it). */
  onStall(report: StallReport): void;
}

/** One open stream. Heartbeats are the transport's own business: the channel writes them itself. */
export interface StreamChannel {
  /** Writes a message; nothing once the channel has ended or been dropped. */
  send(message: SseMessage): void;
  /**
   * Ends the stream after `lastWords` (written as one chunk). A client that does not take what is
   * left within a short grace is dropped.
   */
  end(lastWords?: readonly SseMessage[]): void;
  /** Closes the connection at once; what the client has not taken is lost. */
  drop(): void;
  /** The connection's addresses, when a TCP socket is underneath. */
  readonly addresses: SocketAddresses | undefined;
}
