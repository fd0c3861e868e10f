/**
 * Finds stream clients that read nothing although what they were sent sits in the kernel, not in
 * Node: one timer for the whole hub samples the kernel's send queues (tcp-send-queue.ts).
 *
 * A connection makes progress when the bytes its peer acknowledged grew since the previous look:
 * acknowledged = bytes handed to the kernel (socket.bytesWritten − socket.writableLength) − the
 * kernel's unacknowledged queue (tx_queue). It is stale when it has had bytes outstanding (in Node's
 * buffer or the kernel's queue) without progress for the stale timeout.
 *
 * The peer's kernel acknowledges what fits in its receive buffer (about 128 KB on Linux defaults)
 * whether or not the client reads it; only what is sent beyond that shows a client that stopped.
 *
 * Where the tables cannot be read (not Linux), nothing is watched: Node's own buffer is the only
 * sign (see SseChannel in channel.ts).
 */
import { readTcpTable, collectSendQueues, tcpRowOf, tcpTablesReadable, type SocketAddresses, type TcpRow, type TcpTable } from "./tcp-send-queue";

/** What the sampler reads of a connection (node:net's Socket has it). */
export interface SampledSocket extends SocketAddresses {
  readonly bytesWritten: number;
  readonly writableLength: number;
  readonly destroyed: boolean;
}

export interface StallSamplerLogger {
  warn(obj: object, msg?: string): void;
  debug?(obj: object, msg?: string): void;
}

export interface StallSamplerOptions {
  staleTimeoutMs: number;
  /** Time between two samples. */
  periodMs: number;
  /** Reads a kernel table (tests pass their own). */
  readTable?: (table: TcpTable) => Promise<string>;
  /** Whether the kernel tables can be read; by default, whether /proc/net/tcp exists. */
  available?: boolean;
  logger?: StallSamplerLogger;
  /** Monotonic milliseconds. */
  now?: () => number;
}

/** Why a connection was found stale: what its client had not taken. */
export interface StaleReport {
  kernelQueuedBytes: number;
  nodeQueuedBytes: number;
}

interface Watched {
  readonly socket: SampledSocket;
  readonly onStale: (report: StaleReport) => void;
  /** Its row in the kernel's table; null when its addresses are unknown (nothing to sample). */
  row: TcpRow | null | undefined;
  /** Bytes handed to the kernel that the last look accounted for (acknowledged or queued then). */
  accountedHanded: number;
  /** The kernel queue at the last look. */
  lastQueue: number;
  /** At most this many bytes had been acknowledged at the last look (undefined: not looked at yet). */
  ackedAtMost: number | undefined;
  /** Sample time from which no progress was seen while bytes were outstanding. */
  stalledSince: number | undefined;
}

/** Bytes Node has handed to the kernel (bytesWritten counts what is still in Node's buffer too). */
function handedToKernel(socket: SampledSocket): number | undefined {
  const written = socket.bytesWritten as number | undefined;
  return written === undefined ? undefined : written - socket.writableLength;
}

export class StallSampler {
  readonly available: boolean;
  private readonly watched = new Set<Watched>();
  private readonly readTable: (table: TcpTable) => Promise<string>;
  private readonly now: () => number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sampling = false;
  private readFailureLogged = false;

  constructor(private readonly options: StallSamplerOptions) {
    this.available = options.available ?? tcpTablesReadable();
    this.readTable = options.readTable ?? readTcpTable;
    this.now = options.now ?? (() => performance.now());
  }

  /** Watches a connection until the returned function is called; `onStale` runs at most once. */
  watch(socket: SampledSocket, onStale: (report: StaleReport) => void): () => void {
    if (!this.available) return () => {};
    const entry: Watched = { socket, onStale, row: undefined, accountedHanded: 0, lastQueue: 0, ackedAtMost: undefined, stalledSince: undefined };
    this.watched.add(entry);
    this.schedule();
    return () => this.unwatch(entry);
  }

  get watching(): number {
    return this.watched.size;
  }

  /** Whether the sampling timer is set (it is only while something is watched). */
  get running(): boolean {
    return this.timer !== undefined || this.sampling;
  }

  get periodMs(): number {
    return this.options.periodMs;
  }

  /** Forgets every connection and stops the timer. */
  stop(): void {
    this.watched.clear();
    this.clearTimer();
  }

  private unwatch(entry: Watched): void {
    this.watched.delete(entry);
    if (this.watched.size === 0) this.clearTimer();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.sampling || this.watched.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sampling = true;
      void this.sample().finally(() => {
        this.sampling = false;
        this.schedule();
      });
    }, this.options.periodMs);
    this.timer.unref?.();
  }

  /** One sample of every watched connection (the timer calls it; tests may too). */
  async sample(): Promise<void> {
    // First what Node had handed to the kernel, then the kernel's queues, then Node's counts again:
    // bytes handed meanwhile make the acknowledged count a range, never a false progress.
    const looked: Array<{ entry: Watched; handedBefore: number; row: TcpRow }> = [];
    const tables = new Set<TcpTable>();
    for (const entry of this.watched) {
      if (entry.socket.destroyed) continue;
      const handed = handedToKernel(entry.socket);
      if (handed === undefined) continue;
      entry.row ??= tcpRowOf(entry.socket) ?? null;
      if (!entry.row) continue;
      if (handed === entry.accountedHanded && entry.lastQueue === 0 && entry.socket.writableLength === 0) {
        // All it was handed had been acknowledged at the last look, and nothing since: nothing outstanding.
        entry.stalledSince = undefined;
        continue;
      }
      looked.push({ entry, handedBefore: handed, row: entry.row });
      tables.add(entry.row.table);
    }
    if (looked.length === 0) return;

    const wanted = new Set(looked.map(({ row }) => row.key));
    const queues = new Map<string, number>();
    for (const table of tables) {
      try {
        collectSendQueues(await this.readTable(table), wanted, queues);
      } catch (error) {
        if (!this.readFailureLogged) {
          this.readFailureLogged = true;
          this.options.logger?.warn({ err: (error as Error).message, table }, "kernel send queues unreadable: stalled stream clients are found only once Node buffers");
        }
      }
    }

    const at = this.now();
    for (const { entry, handedBefore, row } of looked) {
      if (!this.watched.has(entry) || entry.socket.destroyed) continue;
      const queue = queues.get(row.key);
      // Not listed: closing, or hidden from this namespace. Node's own rule still applies.
      if (queue === undefined) continue;
      const handedAfter = handedToKernel(entry.socket) ?? handedBefore;
      const ackedAtLeast = handedBefore - queue;
      const progressed = entry.ackedAtMost === undefined || ackedAtLeast > entry.ackedAtMost;
      entry.ackedAtMost = handedAfter - queue;
      entry.accountedHanded = handedBefore;
      entry.lastQueue = queue;
      const nodeQueued = entry.socket.writableLength;
      if (queue === 0 && nodeQueued === 0) {
        entry.stalledSince = undefined;
      } else if (progressed || entry.stalledSince === undefined) {
        entry.stalledSince = at;
      } else if (at - entry.stalledSince >= this.options.staleTimeoutMs) {
        this.unwatch(entry);
        entry.onStale({ kernelQueuedBytes: queue, nodeQueuedBytes: nodeQueued });
      }
    }
  }
}
