/**
 * The transport of the event streams: a channel per open stream over its sink (http-stream.ts),
 * which counts what its client has not taken yet, and the timers every channel of a hub shares: one
 * heartbeat wheel (heartbeat-wheel.ts) and one sampler of the kernel's send queues (stall-sampler.ts).
 * A channel has a timer of its own only while written data waits.
 */
import { HeartbeatWheel } from "./heartbeat-wheel";
import { StallSampler, type StallSamplerLogger } from "./stall-sampler";
import type { SocketAddresses } from "./tcp-send-queue";
import type { ChannelListener, SseMessage, SseSink, StreamChannel } from "./types";

/** An ended stream whose client takes nothing for this long (at most the stale timeout) is dropped. */
const END_GRACE_MS = 5_000;
/** A comment that keeps proxies from closing an idle stream. */
const HEARTBEAT = ":heartbeat\n\n";

function formatMessage(message: SseMessage): string {
  if ("comment" in message) return `${message.retryMs !== undefined ? `retry: ${message.retryMs}\n` : ""}:${message.comment}\n\n`;
  return `${message.id !== undefined ? `id: ${message.id}\n` : ""}event: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n`;
}

export interface SseTransportOptions {
  heartbeatMs: number;
  /** A client that has read nothing for this long is reported (ChannelListener.onStall). */
  staleTimeoutMs: number;
  /** How often the kernel's send queues are sampled (default: a quarter of the stale timeout, at most 15 s). */
  sampleMs?: number;
  logger?: StallSamplerLogger;
}

export class SseTransport {
  /** Watches every channel's socket for a client that reads nothing while the kernel holds its data. */
  readonly stallSampler: StallSampler;
  /** One timer beats every channel (a timer per stream would cost memory per stream). */
  readonly heartbeats: HeartbeatWheel<SseChannel>;

  constructor(readonly options: SseTransportOptions) {
    this.heartbeats = new HeartbeatWheel(options.heartbeatMs, (channel) => channel.heartbeat());
    this.stallSampler = new StallSampler({
      staleTimeoutMs: options.staleTimeoutMs,
      periodMs: options.sampleMs ?? Math.min(options.staleTimeoutMs / 4, 15_000),
      logger: options.logger,
    });
    if (this.stallSampler.available) {
      options.logger?.debug?.({ sampleMs: this.stallSampler.periodMs }, "stream clients that read nothing: kernel send queues sampled");
    } else {
      options.logger?.debug?.(
        {},
        "kernel send queues not readable here (no /proc/net/tcp): a stream client that reads nothing is found only once Node buffers its data",
      );
    }
  }

  /** Opens a channel over a sink; from now on it beats and is watched until it ends or is dropped. */
  open(sink: SseSink, listener: ChannelListener): StreamChannel {
    return new SseChannel(this, sink, listener);
  }

  /** Stops the shared timers (once every channel is closed). */
  stop(): void {
    this.stallSampler.stop();
  }
}

class SseChannel implements StreamChannel {
  private state: "open" | "ended" | "dropped" = "open";
  /** Chunks handed to the sink that the connection has not taken yet. */
  private unflushed = 0;
  /** When queued data last made progress (or started waiting), in performance.now() time. */
  private waitingSince = 0;
  /** Runs while data is queued: reports the stall (or drops an ended channel) when nothing moves. */
  private stallTimer: ReturnType<typeof setTimeout> | undefined;
  /** Stops the transport's sampler watching this channel's socket. */
  private unwatchSocket: () => void = () => {};

  constructor(
    private readonly transport: SseTransport,
    private readonly sink: SseSink,
    private readonly listener: ChannelListener,
  ) {
    transport.heartbeats.add(this);
    if (sink.socket) {
      this.unwatchSocket = transport.stallSampler.watch(sink.socket, (queued) => {
        if (this.state === "open") listener.onStall({ seenIn: "kernel", ...queued });
      });
    }
  }

  get addresses(): SocketAddresses | undefined {
    const socket = this.sink.socket;
    if (!socket) return undefined;
    return { localAddress: socket.localAddress, localPort: socket.localPort, remoteAddress: socket.remoteAddress, remotePort: socket.remotePort };
  }

  /** The heartbeat wheel calls it once per period. */
  heartbeat(): void {
    this.write(HEARTBEAT);
  }

  send(message: SseMessage): void {
    this.write(formatMessage(message));
  }

  private write(chunk: string): void {
    if (this.state !== "open") return;
    this.queued();
    this.sink.write(chunk, this.flushed);
  }

  /**
   * "The client has read nothing" is measured on what it takes: as long as any chunk is queued, the
   * time since the connection last took one is the time it has read nothing. write()'s answer and
   * drain events say only whether Node's own buffer is over its mark, so they are not used. The
   * kernel's buffers hide a stopped reader from this rule until they fill (megabytes): the
   * transport's StallSampler watches the kernel's send queue for that.
   */
  private queued(): void {
    if (this.unflushed === 0) this.waitingSince = performance.now();
    this.unflushed += 1;
    this.stallTimer ??= setTimeout(this.checkStall, this.stallLimit());
  }

  private readonly flushed = (): void => {
    this.unflushed = Math.max(0, this.unflushed - 1);
    this.waitingSince = performance.now();
    if (this.unflushed === 0 && this.stallTimer) {
      clearTimeout(this.stallTimer);
      this.stallTimer = undefined;
    }
  };

  /** How long queued data may wait: the stale timeout while open, a short grace once ended. */
  private stallLimit(): number {
    const stale = this.transport.options.staleTimeoutMs;
    return this.state === "open" ? stale : Math.min(stale, END_GRACE_MS);
  }

  private readonly checkStall = (): void => {
    this.stallTimer = undefined;
    if (this.unflushed === 0) return;
    const left = this.stallLimit() - (performance.now() - this.waitingSince);
    if (left > 0) {
      this.stallTimer = setTimeout(this.checkStall, left);
    } else if (this.state !== "open") {
      this.drop();
    } else {
      this.listener.onStall({ seenIn: "node" });
    }
  };

  /** No more heartbeats or samples for this channel. */
  private leaveTimers(): void {
    this.transport.heartbeats.remove(this);
    this.unwatchSocket();
  }

  end(lastWords?: readonly SseMessage[]): void {
    if (this.state !== "open") return;
    this.state = "ended";
    this.leaveTimers();
    try {
      if (lastWords?.length) {
        this.queued();
        this.sink.write(lastWords.map(formatMessage).join(""), this.flushed);
      }
      this.queued();
      this.sink.end(this.flushed);
      // From now on the stall timer gives the client a short grace to take the last bytes.
      if (this.stallTimer) clearTimeout(this.stallTimer);
      this.stallTimer = setTimeout(this.checkStall, 0);
    } catch {
      this.drop();
    }
  }

  drop(): void {
    if (this.state === "dropped") return;
    this.state = "dropped";
    this.leaveTimers();
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
    this.unflushed = 0;
    try {
      this.sink.destroy();
    } catch {
      // Already gone.
    }
  }
}
