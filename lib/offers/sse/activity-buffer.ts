/**
 * Streams opened and closed, for the player's timeline, kept off the connect path: the hub hands each
 * one to this buffer (no await), which writes them in one multi-row insert at most every second or
 * every 500 rows. Each instance buffers its own streams, so N instances write N independent batches.
 * Bounded: past the cap new rows are dropped and counted in a log line. An instance that is killed
 * loses what it had not written yet (at most a second of opens and closes); an orderly stop flushes.
 */
import type { ActivityRecord } from "../engine/activity";
import type { HubLogger } from "./hub";

export interface ActivityBufferOptions {
  write(records: readonly ActivityRecord[]): Promise<void>;
  logger?: HubLogger;
  /** Written at least this often while rows wait (default 1 s). */
  flushMs?: number;
  /** Written at once when this many wait (default 500), in batches of at most this many. */
  batchRows?: number;
  /** Rows held at most; beyond, dropped and counted (default 10,000). */
  maxRows?: number;
}

export class ActivityBuffer {
  private rows: ActivityRecord[] = [];
  private dropped = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> | undefined;
  private readonly flushMs: number;
  private readonly batchRows: number;
  private readonly maxRows: number;

  constructor(private readonly options: ActivityBufferOptions) {
    this.flushMs = options.flushMs ?? 1_000;
    this.batchRows = options.batchRows ?? 500;
    this.maxRows = options.maxRows ?? 10_000;
  }

  /** Rows waiting to be written. */
  get pending(): number {
    return this.rows.length;
  }

  add(record: ActivityRecord): void {
    if (this.rows.length >= this.maxRows) {
      this.dropped += 1;
      return;
    }
    this.rows.push(record);
    if (this.rows.length >= this.batchRows) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes everything waiting, one batch after another; a failed batch is logged and dropped (the timeline is best effort). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // One writer at a time: a flush during a write waits for it, then writes what came since.
    const run = (this.writing ?? Promise.resolve()).then(() => this.drain());
    this.writing = run;
    void run.finally(() => {
      if (this.writing === run) this.writing = undefined;
    });
    return run;
  }

  private async drain(): Promise<void> {
    if (this.dropped > 0) {
      this.options.logger?.warn({ dropped: this.dropped, maxRows: this.maxRows }, "player activity dropped: buffer full");
      this.dropped = 0;
    }
    while (this.rows.length > 0) {
      const batch = this.rows.splice(0, this.batchRows);
      try {
        await this.options.write(batch);
      } catch (err) {
        this.options.logger?.warn({ err, rows: batch.length }, "player activity not written");
      }
    }
  }

  /** Orderly stop: writes what waits. */
  async stop(): Promise<void> {
    await this.flush();
  }
}
