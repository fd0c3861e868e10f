/** The delivery worker's slot table, without a database: random runs of leases, finished attempts, give-backs and stops. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzParameters } from "@/test-support/fuzz";
import { HELD_PER_SLOT, leaseFilled, SlotTable } from "./slots";

interface Item {
  id: number;
  endpointId: string;
  /** Whether its lease still has room for an attempt when it would start from the waiting line. */
  leaseLeft: boolean;
  stale: boolean;
}

type Step =
  /** A lease statement: these endpoints' deliveries, cut to the limits the table gave (as the SQL does). */
  | { kind: "lease"; endpoints: number[]; stale: boolean[]; leaseLeft: boolean[] }
  /** The attempt in flight at this position (modulo) ends. */
  | { kind: "finish"; pick: number }
  | { kind: "drain" }
  | { kind: "stop" };

const ENDPOINTS = ["ep-a", "ep-b", "ep-c", "ep-d"];

const arbStep: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 8 }).chain((n) => fc.record({ kind: fc.constant("lease" as const), endpoints: fc.array(fc.integer({ min: 0, max: ENDPOINTS.length - 1 }), { minLength: n, maxLength: n }), stale: fc.array(fc.boolean(), { minLength: n, maxLength: n }), leaseLeft: fc.array(fc.boolean(), { minLength: n, maxLength: n }) })) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("finish" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "drain" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "stop" as const }) },
);

interface Run {
  concurrency: number;
  perEndpoint: number;
  steps: Step[];
}

const arbRun: fc.Arbitrary<Run> = fc.record({
  concurrency: fc.integer({ min: 1, max: 6 }),
  perEndpoint: fc.integer({ min: 1, max: 4 }),
  steps: fc.array(arbStep, { maxLength: 60 }),
});

/** Runs the steps as the worker would, checking the table's promises after each. */
function run({ concurrency, perEndpoint, steps }: Run): void {
  const table = new SlotTable<Item>({ concurrency, perEndpoint });
  const inFlight: Item[] = [];
  /** The order each endpoint's deliveries went into the waiting line, and the order they left it. */
  const lined = new Map<string, number[]>();
  const left = new Map<string, number[]>();
  const seen = new Set<number>();
  const ended = new Set<number>();
  let nextId = 0;
  let stopped = false;
  const out = (item: Item) => {
    expect(ended.has(item.id), `delivery ${item.id} leaves the table once`).toBe(false);
    ended.add(item.id);
  };
  const leaveLine = (item: Item) => left.set(item.endpointId, [...(left.get(item.endpointId) ?? []), item.id]);
  const startWaiting = () => {
    // The table asks about each waiting delivery as it leaves the line.
    const { start, expired } = table.next((item) => {
      leaveLine(item);
      return item.leaseLeft;
    });
    if (stopped) expect(start).toEqual([]);
    for (const item of start) {
      expect(item.leaseLeft).toBe(true);
      inFlight.push(item);
    }
    for (const item of expired) {
      expect(item.leaseLeft).toBe(false);
      out(item);
    }
  };

  for (const step of steps) {
    if (step.kind === "lease") {
      // What a lease statement may take: the room in all, and per endpoint what the table does not hold yet.
      const limits = table.leaseLimits();
      expect(limits.perEndpoint).toBe(HELD_PER_SLOT * perEndpoint);
      const taken = new Map<string, number>();
      const batch: Item[] = [];
      step.endpoints.forEach((e, i) => {
        const endpointId = ENDPOINTS[e]!;
        const used = (limits.busy.get(endpointId) ?? 0) + (taken.get(endpointId) ?? 0);
        if (batch.length >= limits.total || used >= limits.perEndpoint) return;
        taken.set(endpointId, (taken.get(endpointId) ?? 0) + 1);
        batch.push({ id: nextId++, endpointId, stale: step.stale[i]!, leaseLeft: step.leaseLeft[i]! });
      });
      for (const item of batch) {
        seen.add(item.id);
        const flying = inFlight.filter((f) => f.endpointId === item.endpointId).length;
        const waitingBefore = (table.held().get(item.endpointId) ?? 0) - flying;
        const slotFree = inFlight.length < concurrency && flying < perEndpoint;
        const admission = table.admit(item, item.stale);
        // Started exactly when a slot is free and nothing of its endpoint waits before it.
        expect(admission === "started").toBe(slotFree && waitingBefore === 0);
        if (admission === "started") {
          inFlight.push(item);
        } else if (admission === "stale") {
          expect(item.stale).toBe(true);
          out(item);
        } else {
          expect(item.stale).toBe(false);
          lined.set(item.endpointId, [...(lined.get(item.endpointId) ?? []), item.id]);
        }
      }
    } else if (step.kind === "finish") {
      if (inFlight.length === 0) continue;
      const [item] = inFlight.splice(step.pick % inFlight.length, 1);
      table.finished(item!.endpointId);
      out(item!);
      startWaiting();
    } else if (step.kind === "drain") {
      for (const item of table.drain()) {
        leaveLine(item);
        out(item);
      }
    } else {
      table.stop();
      stopped = true;
    }

    // Never more in flight than the slots, in all and per endpoint; never more held than twice that.
    expect(table.running).toBe(inFlight.length);
    expect(table.running).toBeLessThanOrEqual(concurrency);
    const held = table.held();
    for (const endpointId of ENDPOINTS) {
      const flying = inFlight.filter((f) => f.endpointId === endpointId).length;
      expect(flying).toBeLessThanOrEqual(perEndpoint);
      expect(held.get(endpointId) ?? 0).toBeGreaterThanOrEqual(flying);
      expect(held.get(endpointId) ?? 0).toBeLessThanOrEqual(HELD_PER_SLOT * perEndpoint);
    }
    expect(table.room()).toBeGreaterThanOrEqual(0);
    expect(table.room()).toBe(HELD_PER_SLOT * concurrency - table.running - table.queued);
    expect([...held.values()].reduce((a, b) => a + b, 0)).toBe(table.running + table.queued);
    // Nothing lost, nothing twice: each delivery is in flight, waiting, or has left the table once.
    expect(inFlight.length + table.queued + ended.size).toBe(seen.size);
    // A slot that frees starts what waits: after an attempt ends, no endpoint with a delivery waiting has a free slot.
    if (step.kind === "finish" && !stopped) {
      for (const endpointId of ENDPOINTS) {
        const waiting = (held.get(endpointId) ?? 0) - inFlight.filter((f) => f.endpointId === endpointId).length;
        const flying = inFlight.filter((f) => f.endpointId === endpointId).length;
        if (waiting > 0) expect(flying === perEndpoint || table.running === concurrency, `${endpointId} waits with a slot free`).toBe(true);
      }
    }
  }
  // Each endpoint's waiting line is first in, first out.
  for (const [endpointId, order] of left) expect(order).toEqual((lined.get(endpointId) ?? []).slice(0, order.length));
}

describe("delivery slot table", () => {
  it("keeps the limits, loses nothing, starts what waits as slots free, first in first out", () => {
    fc.assert(fc.property(arbRun, run), fuzzParameters(100));
  });

  it("a delivery waits behind its endpoint's line even when a slot is free, and a stale one is given back instead of waiting", () => {
    const table = new SlotTable<{ endpointId: string; n: number }>({ concurrency: 4, perEndpoint: 1 });
    expect(table.admit({ endpointId: "a", n: 1 }, false)).toBe("started");
    expect(table.admit({ endpointId: "a", n: 2 }, false)).toBe("waiting");
    expect(table.admit({ endpointId: "a", n: 3 }, true)).toBe("stale");
    // A stale one that finds a free slot is sent (it was read with the endpoint as it is now on this instance's last read).
    expect(table.admit({ endpointId: "b", n: 4 }, true)).toBe("started");
    expect(table.leaseLimits()).toEqual({ total: 8 - 3, perEndpoint: 2, busy: new Map([["a", 2], ["b", 1]]) });
    table.finished("a");
    expect(table.next(() => true)).toEqual({ start: [{ endpointId: "a", n: 2 }], expired: [] });
  });

  it("gives back, without a slot, a waiting delivery whose lease is too short, and starts the next one", () => {
    const table = new SlotTable<{ endpointId: string; n: number }>({ concurrency: 4, perEndpoint: 1 });
    table.admit({ endpointId: "a", n: 1 }, false);
    table.admit({ endpointId: "a", n: 2 }, false);
    table.admit({ endpointId: "a", n: 3 }, false);
    table.finished("a");
    expect(table.next((held) => held.n !== 2)).toEqual({ start: [{ endpointId: "a", n: 3 }], expired: [{ endpointId: "a", n: 2 }] });
    expect(table.queued).toBe(0);
  });

  it("stopped, it starts nothing more; drained, it holds nothing waiting", () => {
    const table = new SlotTable<{ endpointId: string }>({ concurrency: 1, perEndpoint: 1 });
    table.admit({ endpointId: "a" }, false);
    table.admit({ endpointId: "a" }, false);
    table.stop();
    table.finished("a");
    expect(table.next(() => true)).toEqual({ start: [], expired: [] });
    expect(table.drain()).toEqual([{ endpointId: "a" }]);
    expect(table.running + table.queued).toBe(0);
    expect(table.room()).toBe(2);
  });
});

describe("whether a lease took all it was let", () => {
  const limits = { total: 512, perEndpoint: 128, busy: new Map([["slow", 100]]) };
  const times = (n: number, endpointId: string) => Array.from({ length: n }, () => endpointId);

  it("is full when one endpoint's share is taken, far below the instance's room", () => {
    expect(leaseFilled(times(128, "a"), limits)).toBe(true);
    expect(leaseFilled([...times(3, "b"), ...times(28, "slow")], limits), "what the busy endpoint had left").toBe(true);
  });

  it("is not full when every endpoint got less than its share", () => {
    expect(leaseFilled([], limits)).toBe(false);
    expect(leaseFilled([...times(127, "a"), ...times(27, "slow")], limits)).toBe(false);
  });

  it("counts an endpoint that had no room left as full: it may have more due", () => {
    expect(leaseFilled([], { ...limits, busy: new Map([["a", 128]]) })).toBe(true);
  });

  it("is full when the instance's room is taken", () => {
    expect(leaseFilled(["a", "b"], { total: 2, perEndpoint: 128, busy: new Map() })).toBe(true);
  });
});
