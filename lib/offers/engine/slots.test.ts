/** The slot and queue rules, without a database. */
import fc from "fast-check";
import { fuzzParameters } from "@/test-support/fuzz";
import { describe, expect, it } from "vitest";
import type { CompletionCondition, OfferStatus } from "../contract";
import {
  assignmentStatus,
  campaignsNeedWrite,
  freeSlots,
  heldSlots,
  OPEN,
  planSettle,
  queueOrder,
  viewingTransition,
  visibleOffers,
  type SlotOffer,
} from "./slots";

const NOW = new Date(Date.UTC(2026, 0, 1, 12));
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const condition: CompletionCondition = { kind: "spendCurrency", id: "gold", name: "Gold", amount: 10 };

let counter = 0;
function offer(status: OfferStatus, fields: Partial<SlotOffer> = {}): SlotOffer {
  counter += 1;
  return { instanceId: `i${String(counter).padStart(4, "0")}`, status, priority: 0, createdAt: at(-100 + counter), expiresAt: at(3600), completionConditions: null, ...fields };
}

const statuses: OfferStatus[] = ["inQueue", "surfaced", "viewed", "claimable", "claimed", "expired"];
const arbOffer: fc.Arbitrary<SlotOffer> = fc.record({
  instanceId: fc.uuid(),
  status: fc.constantFrom(...statuses),
  priority: fc.integer({ min: -3, max: 3 }),
  createdAt: fc.integer({ min: -1000, max: 0 }).map(at),
  expiresAt: fc.integer({ min: -100, max: 100 }).map(at),
  completionConditions: fc.constantFrom<CompletionCondition[] | null>(null, [condition]),
});
const arbOffers = fc.array(arbOffer, { maxLength: 12 });
const arbSlots = fc.integer({ min: 0, max: 5 });

describe("slot rules", () => {
  it("surfaced, viewed and claimable hold a slot; queued and final offers do not", () => {
    const offers = statuses.map((s) => offer(s));
    expect(heldSlots(offers)).toBe(3);
    expect(freeSlots(offers, 5)).toBe(2);
    expect(freeSlots(offers, 2)).toBe(0);
  });

  it("a new assignment is surfaced while a slot is free, else queued", () => {
    expect(assignmentStatus([offer("surfaced"), offer("inQueue")], 2)).toBe("surfaced");
    expect(assignmentStatus([offer("surfaced"), offer("claimable")], 2)).toBe("inQueue");
  });

  it("a settle expires overdue offers but not claimable ones, tracks offers with conditions, then promotes the queue by priority, then age", () => {
    const overdue = offer("surfaced", { expiresAt: at(-1) });
    const earned = offer("claimable", { expiresAt: at(-1) });
    const tracked = offer("viewed", { completionConditions: [condition] });
    const old = offer("inQueue", { priority: 1 });
    const urgent = offer("inQueue", { priority: 5 });
    const newer = offer("inQueue", { priority: 1 });
    const plan = planSettle([overdue, earned, tracked, old, urgent, newer], NOW, 4);
    expect(plan.steps).toEqual([
      { kind: "expire", offer: overdue },
      { kind: "track", offer: tracked },
    ]);
    expect(plan.promote).toEqual([urgent, old]);
  });

  it("an overdue queued offer expires instead of being promoted", () => {
    const stale = offer("inQueue", { priority: 9, expiresAt: at(0) });
    const fresh = offer("inQueue");
    const plan = planSettle([stale, fresh], NOW, 1);
    expect(plan.steps).toEqual([{ kind: "expire", offer: stale }]);
    expect(plan.promote).toEqual([fresh]);
  });

  it("viewing: surfaced → viewed, then → claimable only without conditions", () => {
    expect(viewingTransition({ status: "surfaced", completionConditions: null })).toEqual({ to: "viewed", cause: "viewingCampaigns" });
    expect(viewingTransition({ status: "viewed", completionConditions: null })).toEqual({ to: "claimable", cause: "viewed-without-conditions" });
    expect(viewingTransition({ status: "viewed", completionConditions: [condition] })).toBeNull();
    expect(viewingTransition({ status: "claimable", completionConditions: null })).toBeNull();
  });

  it("the client view leaves queued offers out; the server view lists all", () => {
    const offers = [offer("inQueue"), offer("surfaced")];
    expect(visibleOffers(offers, false)).toEqual([offers[1]]);
    expect(visibleOffers(offers, true)).toEqual(offers);
  });

  it("property: a settle never over-fills the slots and promotes exactly the head of the queue into the free ones", () => {
    fc.assert(
      fc.property(arbOffers, arbSlots, (offers, maxSlots) => {
        // A settle reads the open offers only.
        const open = offers.filter((o) => OPEN.includes(o.status));
        const plan = planSettle(open, NOW, maxSlots);
        const expired = new Set(plan.steps.filter((s) => s.kind === "expire").map((s) => s.offer));
        const remaining = open.filter((o) => !expired.has(o));
        const held = heldSlots(remaining);
        const queue = remaining.filter((o) => o.status === "inQueue").sort(queueOrder);
        expect(plan.promote).toEqual(queue.slice(0, Math.max(0, maxSlots - held)));
        if (held <= maxSlots) expect(held + plan.promote.length).toBeLessThanOrEqual(maxSlots);
        // Nothing waits in the queue while a slot is free.
        if (plan.promote.length < queue.length) expect(held + plan.promote.length).toBeGreaterThanOrEqual(maxSlots);
        // Only the clock ends offers, and never earned ones.
        for (const o of expired) expect(["inQueue", "surfaced", "viewed"]).toContain(o.status);
      }),
      fuzzParameters(100),
    );
  });

  it("property: when the lock-free read says nothing would change, a settle (and viewing) changes no status", () => {
    fc.assert(
      fc.property(arbOffers, arbSlots, fc.boolean(), (offers, maxSlots, viewing) => {
        fc.pre(!campaignsNeedWrite(offers, NOW, maxSlots, viewing));
        const open = offers.filter((o) => OPEN.includes(o.status));
        const plan = planSettle(open, NOW, maxSlots);
        expect(plan.steps.filter((s) => s.kind === "expire")).toEqual([]);
        expect(plan.promote).toEqual([]);
        if (viewing) for (const o of open) expect(viewingTransition(o)).toBeNull();
      }),
      fuzzParameters(100),
    );
  });

  it("property: queue order is a total order (antisymmetric, and ties only for the same instance)", () => {
    fc.assert(
      fc.property(arbOffer, arbOffer, (a, b) => {
        expect(Math.sign(queueOrder(a, b))).toBe(-Math.sign(queueOrder(b, a)));
        if (queueOrder(a, b) === 0) expect(a.instanceId).toBe(b.instanceId);
      }),
      fuzzParameters(100),
    );
  });
});
