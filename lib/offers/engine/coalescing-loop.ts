/**
 * The background loop of the job runners (surfacing jobs, bulk compensation): one run at a time, a
 * poll after each run, and wakes that coalesce (a wake during a run makes exactly one more run).
 * A runner that may sleep longer while idle says so: after each run that found nothing to do the
 * next poll waits twice as long, up to `idleBackoffPolls` polls, like the delivery worker
 * (../delivery/rounds.ts); a wake or a run with work brings it back to one poll.
 */

/** Enough idle runs in a row to reach any backoff (2 ** 30 polls); counting further changes nothing. */
const MAX_QUIET_RUNS = 31;

export interface CoalescingLoopOptions {
  /** One run; answers whether it found something to do (false: idle). */
  run: () => Promise<boolean>;
  /** A run that threw (the loop carries on at the next poll). */
  onError: (error: unknown) => void;
  /** The longest idle sleep, in polls (default 1: poll steadily). */
  idleBackoffPolls?: number;
}

export class CoalescingLoop {
  private readonly idleBackoffPolls: number;
  private pollMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private quietRuns = 0;
  private halted = false;

  constructor(private readonly options: CoalescingLoopOptions) {
    this.idleBackoffPolls = Math.max(1, Math.floor(options.idleBackoffPolls ?? 1));
  }

  /** Whether stop() was called (a run checks it between steps to end early). */
  get stopped(): boolean {
    return this.halted;
  }

  /** Runs now, then after each run sleeps a poll (more while idle) until stop(). */
  start(pollMs: number): void {
    this.halted = false;
    this.pollMs = pollMs;
    this.wake();
  }

  /** Runs now, or once more after the current run; a quiet loop polls every poll again. */
  wake(): void {
    if (this.halted) return;
    this.quietRuns = 0;
    this.runSoon();
  }

  /** Stops polling and waits for the run in progress. */
  async stop(): Promise<void> {
    this.halted = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private runSoon(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.runWhileWoken().finally(() => {
      this.running = undefined;
      this.schedule();
    });
  }

  private async runWhileWoken(): Promise<void> {
    try {
      do {
        this.again = false;
        const busy = await this.options.run();
        this.quietRuns = busy ? 0 : Math.min(this.quietRuns + 1, MAX_QUIET_RUNS);
      } while (this.again && !this.halted);
    } catch (error) {
      // Not idle: a failed run is retried at the next poll.
      this.quietRuns = 0;
      this.options.onError(error);
    }
  }

  private schedule(): void {
    // Not started (a run only through wake()), or stopped: no poll.
    if (this.halted || this.pollMs <= 0) return;
    this.timer = setTimeout(() => this.runSoon(), this.pollMs * this.idlePolls());
    this.timer.unref();
  }

  /** Polls to sleep: 1 after a run with work, then 1, 2, 4, … up to idleBackoffPolls after each idle run in a row. */
  private idlePolls(): number {
    if (this.quietRuns === 0) return 1;
    return Math.min(2 ** (this.quietRuns - 1), this.idleBackoffPolls);
  }
}
