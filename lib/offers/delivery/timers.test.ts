/** The worker's one-shot timers by kind. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Timers } from "./timers";

describe("timers by kind", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("one timer per kind: setting again replaces it; clear drops it; fireNow runs it early, once", () => {
    const timers = new Timers<"a" | "b">();
    const fired: string[] = [];
    timers.set("a", 100, () => fired.push("a1"), false);
    timers.set("a", 50, () => fired.push("a2"), true);
    timers.set("b", 10, () => fired.push("b"), false);
    vi.advanceTimersByTime(200);
    expect(fired).toEqual(["b", "a2"]);
    expect(timers.isSet("a")).toBe(false);

    timers.set("a", 100, () => fired.push("a3"), false);
    timers.clear("a");
    timers.set("b", 100, () => fired.push("b2"), false);
    timers.fireNow("b");
    timers.fireNow("b");
    vi.advanceTimersByTime(200);
    expect(fired).toEqual(["b", "a2", "b2"]);
  });

  it("a wait ends after its time, or at once when fired early", async () => {
    const timers = new Timers<"sleep">();
    let done = false;
    const waiting = timers.wait("sleep", 1_000, true).then(() => (done = true));
    timers.fireNow("sleep");
    await waiting;
    expect(done).toBe(true);
    const timed = timers.wait("sleep", 1_000, true);
    vi.advanceTimersByTime(1_000);
    await timed;
  });
});
