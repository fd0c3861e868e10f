/** The runners' background loop, without a database: fake timers stand in for the polls. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CoalescingLoop } from "./coalescing-loop";

const POLL_MS = 1_000;

/** A run the test finishes by hand, so it can wake the loop while the run is in progress. */
function heldRuns() {
  const pending: Array<(busy: boolean) => void> = [];
  let started = 0;
  return {
    run: () => {
      started += 1;
      return new Promise<boolean>((resolve) => pending.push(resolve));
    },
    get started() {
      return started;
    },
    finish(busy = false) {
      pending.shift()?.(busy);
    },
  };
}

/** Lets the loop's promise callbacks run (fake timers do not advance them). */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe("CoalescingLoop", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs once more, not once per wake, when woken several times during a run", async () => {
    const runs = heldRuns();
    const loop = new CoalescingLoop({ run: runs.run, onError: () => {} });
    loop.wake();
    loop.wake();
    loop.wake();
    expect(runs.started).toBe(1);
    runs.finish();
    await settle();
    expect(runs.started).toBe(2);
    runs.finish();
    await settle();
    expect(runs.started).toBe(2);
    await loop.stop();
  });

  it("stop waits for the run in progress and no run starts after it", async () => {
    const runs = heldRuns();
    const loop = new CoalescingLoop({ run: runs.run, onError: () => {} });
    loop.start(POLL_MS);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    expect(loop.stopped).toBe(true);
    runs.finish(true);
    await stopping;
    loop.wake();
    await vi.advanceTimersByTimeAsync(POLL_MS * 100);
    expect(runs.started).toBe(1);
  });

  it("polls steadily by default, idle or not", async () => {
    const run = vi.fn(async () => false);
    const loop = new CoalescingLoop({ run, onError: () => {} });
    loop.start(POLL_MS);
    await vi.advanceTimersByTimeAsync(POLL_MS * 10);
    expect(run).toHaveBeenCalledTimes(11);
    await loop.stop();
  });

  it("sleeps 1, 2, 4, 8 and then 16 polls while idle, and a wake brings it back at once", async () => {
    const run = vi.fn(async () => false);
    const loop = new CoalescingLoop({ run, onError: () => {}, idleBackoffPolls: 16 });
    loop.start(POLL_MS);
    const runsAfter = async (polls: number) => {
      const before = run.mock.calls.length;
      await vi.advanceTimersByTimeAsync(POLL_MS * polls - 1);
      expect(run.mock.calls.length).toBe(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(run.mock.calls.length).toBe(before + 1);
    };
    for (const polls of [1, 2, 4, 8, 16, 16]) await runsAfter(polls);

    loop.wake();
    await settle();
    expect(run).toHaveBeenCalledTimes(8);
    await runsAfter(1);
    await runsAfter(2);
    await loop.stop();
  });

  it("polls every poll again after a run that found work", async () => {
    let busy = false;
    const run = vi.fn(async () => busy);
    const loop = new CoalescingLoop({ run, onError: () => {}, idleBackoffPolls: 16 });
    loop.start(POLL_MS);
    await vi.advanceTimersByTimeAsync(POLL_MS * 31);
    const idleRuns = run.mock.calls.length;
    expect(idleRuns).toBe(6);
    busy = true;
    await vi.advanceTimersByTimeAsync(POLL_MS * 16);
    busy = false;
    await vi.advanceTimersByTimeAsync(POLL_MS * 3);
    // The busy run at 47 polls, then idle runs one poll and another poll later (48, 49).
    expect(run.mock.calls.length).toBe(idleRuns + 3);
    await loop.stop();
  });

  it("reports a failed run and tries again at the next poll", async () => {
    const errors: unknown[] = [];
    const run = vi.fn(async () => {
      throw new Error("database gone");
    });
    const loop = new CoalescingLoop({ run, onError: (error) => errors.push(error), idleBackoffPolls: 16 });
    loop.start(POLL_MS);
    await vi.advanceTimersByTimeAsync(POLL_MS * 3);
    expect(run).toHaveBeenCalledTimes(4);
    expect(errors).toHaveLength(4);
    await loop.stop();
  });
});
