/** The stream activity buffer: written in batches, on time or when full, bounded, flushed on stop. */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ActivityRecord } from "../engine/activity";
import { ActivityBuffer } from "./activity-buffer";

const record = (n: number): ActivityRecord => ({ gameId: "g", playerId: `p${n}`, kind: "stream-opened", at: new Date(0), detail: { instance: "i1", resumed: false } });

describe("ActivityBuffer", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("writes nothing at once, then everything in one batch after the flush interval", async () => {
    vi.useFakeTimers();
    const batches: number[] = [];
    const buffer = new ActivityBuffer({ write: async (rows) => void batches.push(rows.length), flushMs: 1_000 });
    for (let n = 0; n < 3; n++) buffer.add(record(n));
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(999);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([3]);
    expect(buffer.pending).toBe(0);
  });

  it("writes a full batch at once, in batches of at most batchRows", async () => {
    const batches: number[] = [];
    const buffer = new ActivityBuffer({ write: async (rows) => void batches.push(rows.length), batchRows: 500, flushMs: 60_000 });
    for (let n = 0; n < 1_200; n++) buffer.add(record(n));
    await buffer.stop();
    expect(batches.reduce((a, b) => a + b, 0)).toBe(1_200);
    expect(Math.max(...batches)).toBeLessThanOrEqual(500);
  });

  it("drops rows beyond its cap and says how many in one log line; a failed write is logged, not thrown", async () => {
    const warn = vi.fn();
    let fail = true;
    const written: ActivityRecord[] = [];
    const buffer = new ActivityBuffer({
      write: async (rows) => {
        if (fail) throw new Error("database down");
        written.push(...rows);
      },
      logger: { info: () => {}, warn },
      maxRows: 5,
      batchRows: 100,
      flushMs: 60_000,
    });
    for (let n = 0; n < 8; n++) buffer.add(record(n));
    expect(buffer.pending).toBe(5);
    await buffer.flush();
    expect(warn).toHaveBeenCalledWith({ dropped: 3, maxRows: 5 }, "player activity dropped: buffer full");
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ rows: 5 }), "player activity not written");
    fail = false;
    buffer.add(record(9));
    await buffer.stop();
    expect(written.map((r) => r.playerId)).toEqual(["p9"]);
  });
});
