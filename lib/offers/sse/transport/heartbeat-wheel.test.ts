import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HeartbeatWheel } from "./heartbeat-wheel";

describe("HeartbeatWheel", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "setTimeout", "clearTimeout", "Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("beats every member once per period, the first time no later than one period after it joined", async () => {
    const beats = new Map<string, number[]>();
    const wheel = new HeartbeatWheel<string>(30_000, (member) => beats.get(member)!.push(Date.now()));
    const start = Date.now();
    for (const [name, joinAfter] of [["a", 0], ["b", 5_000], ["c", 17_000]] as const) {
      await vi.advanceTimersByTimeAsync(joinAfter - (Date.now() - start));
      beats.set(name, [Date.now()]);
      wheel.add(name);
    }
    await vi.advanceTimersByTimeAsync(120_000);
    for (const [name, times] of beats) {
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(gaps.length, name).toBeGreaterThanOrEqual(4);
      // First heartbeat within the period of joining; then exactly one period apart.
      expect(gaps[0]!, name).toBeLessThanOrEqual(30_000);
      expect(gaps[0]!, name).toBeGreaterThanOrEqual(30_000 - 30_000 / 16);
      for (const gap of gaps.slice(1)) expect(gap, name).toBe(30_000);
    }
  });

  it("spreads members that joined at different times over the period", async () => {
    const beatTimes: number[] = [];
    const wheel = new HeartbeatWheel<number>(16_000, () => beatTimes.push(Date.now()));
    for (let i = 0; i < 16; i++) {
      wheel.add(i);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    beatTimes.length = 0;
    await vi.advanceTimersByTimeAsync(16_000);
    // 16 members, 16 beats over the period, never all at once.
    expect(beatTimes).toHaveLength(16);
    expect(new Set(beatTimes).size).toBe(16);
  });

  it("stops beating a member that left, and leaves no timer once the last one has", async () => {
    const beats: string[] = [];
    const wheel = new HeartbeatWheel<string>(1_000, (member) => beats.push(member));
    wheel.add("a");
    wheel.add("b");
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    wheel.remove("a");
    await vi.advanceTimersByTimeAsync(2_000);
    expect(beats).toEqual(["a", "b", "b", "b"]);
    wheel.remove("b");
    expect(wheel.size).toBe(0);
    expect(wheel.running).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("lets a member leave while its slot is beating", async () => {
    const wheel: HeartbeatWheel<string> = new HeartbeatWheel<string>(1_000, (member) => wheel.remove(member));
    wheel.add("a");
    wheel.add("b");
    await vi.advanceTimersByTimeAsync(1_000);
    expect(wheel.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
