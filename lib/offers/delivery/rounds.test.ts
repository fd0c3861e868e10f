/** When the delivery worker runs a round and whether it leases, without a database or timers. */
import { describe, expect, it } from "vitest";
import { IDLE_BACKOFF_POLLS, MIN_ROUND_MS, ROUND_BATCH_MS, RoundPlan } from "./rounds";

const POLL = 1_000;

describe("delivery round plan", () => {
  it("paces rounds: ROUND_BATCH_MS apart under a flow of claims, MIN_ROUND_MS while a backlog drains", () => {
    const plan = new RoundPlan(POLL);
    // The first round leases whatever is due (a restart may have left some).
    expect(plan.paceMs(false)).toBe(MIN_ROUND_MS);
    expect(plan.startLease(0, 64)).toBe(true);
    expect(plan.paceMs(false)).toBe(ROUND_BATCH_MS);
    expect(plan.paceMs(true)).toBe(MIN_ROUND_MS);
    plan.leased(64, true);
    expect(plan.paceMs(false)).toBe(MIN_ROUND_MS);
    expect(plan.startLease(10, 64)).toBe(true);
    plan.leased(3, false);
    expect(plan.paceMs(false)).toBe(ROUND_BATCH_MS);
    expect(ROUND_BATCH_MS).toBeGreaterThan(MIN_ROUND_MS);
  });

  it("every claim wakes until a round has read the subscribed games; then only those games' claims", () => {
    const plan = new RoundPlan(POLL);
    expect(plan.granted("any")).toBe(true);
    plan.endpointsRead(plan.endpointsVersion, ["hooked"]);
    expect(plan.granted("plain")).toBe(false);
    expect(plan.granted("hooked")).toBe(true);
  });

  it("an endpoint changed here: every claim wakes again, and a round that read before the change keeps nothing", () => {
    const plan = new RoundPlan(POLL);
    plan.endpointsRead(plan.endpointsVersion, ["hooked"]);
    const readAt = plan.endpointsVersion;
    plan.endpointsChanged();
    plan.endpointsRead(readAt, ["hooked"]);
    expect(plan.granted("plain")).toBe(true);
    plan.endpointsRead(plan.endpointsVersion, ["hooked", "plain"]);
    expect(plan.granted("plain")).toBe(true);
    expect(plan.granted("other")).toBe(false);
  });

  it("after a claim whose event is not read yet, idle rounds come sooner: MIN_ROUND_MS, doubling, up to a poll", () => {
    const plan = new RoundPlan(POLL);
    expect(plan.idleMs()).toBe(POLL);
    plan.granted("g");
    const waits = Array.from({ length: 8 }, () => plan.idleMs());
    expect(waits).toEqual([MIN_ROUND_MS, 50, 100, 200, 400, 800, POLL, POLL]);
    plan.granted("g");
    plan.fannedOut(0);
    expect(plan.idleMs()).toBe(MIN_ROUND_MS);
    plan.fannedOut(3);
    expect(plan.idleMs()).toBe(POLL);
  });

  it("a round that finds committed events hidden by an older transaction looks again soon, backing off to a poll while they stay hidden", () => {
    const plan = new RoundPlan(POLL);
    for (let i = 0; i < 5; i++) expect(plan.idleMs()).toBeGreaterThanOrEqual(POLL); // quiet: backing off
    plan.fannedOut(0, true);
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      waits.push(plan.idleMs());
      plan.fannedOut(0, true);
    }
    expect(waits).toEqual([MIN_ROUND_MS, 50, 100, 200, 400, 800, POLL, POLL, POLL]);
    // They show: the next hidden ones are looked for soon again.
    plan.fannedOut(4, false);
    expect(plan.idleMs()).toBe(POLL);
    plan.fannedOut(0, true);
    expect(plan.idleMs()).toBe(MIN_ROUND_MS);
  });

  it("while nothing happens, sleeps longer after each quiet round, up to IDLE_BACKOFF_POLLS polls; anything that happens brings it back to a poll", () => {
    const plan = new RoundPlan(POLL);
    const sleeps = () => Array.from({ length: 7 }, () => plan.idleMs());
    expect(sleeps()).toEqual([POLL, 2 * POLL, 4 * POLL, 8 * POLL, 16 * POLL, 16 * POLL, 16 * POLL]);
    expect(IDLE_BACKOFF_POLLS).toBe(16);
    const wakers: Array<[string, () => void]> = [
      ["a claim in a game with an endpoint", () => plan.granted("g")],
      ["events fanned out", () => plan.fannedOut(2)],
      ["deliveries leased", () => plan.leased(1, false)],
      ["a lease asked for", () => plan.wantLease()],
      ["a retry scheduled", () => plan.retryAt(Date.now() + 60_000 + Math.random())],
      ["an endpoint changed here", () => plan.endpointsChanged()],
    ];
    for (const [what, happen] of wakers) {
      sleeps();
      happen();
      plan.fannedOut(1); // a claim's event read: the quick rounds after a claim end
      expect(plan.idleMs(), what).toBe(POLL);
    }
    // A round that found nothing does not count as something happening.
    sleeps();
    plan.fannedOut(0);
    plan.leased(0, false);
    expect(plan.idleMs()).toBe(16 * POLL);
  });

  it("leases at the first round, when asked, after a full lease, when a retry is due, else once a poll", () => {
    const plan = new RoundPlan(POLL);
    expect(plan.startLease(5_000, 10)).toBe(true);
    plan.leased(3, false);
    expect(plan.wantsLease).toBe(false);
    expect(plan.startLease(5_100, 10)).toBe(false);
    expect(plan.startLease(6_000, 10)).toBe(true);

    plan.leased(10, true);
    expect(plan.wantsLease).toBe(true);
    expect(plan.startLease(6_010, 0), "no room: no lease").toBe(false);
    expect(plan.startLease(6_010, 4)).toBe(true);

    plan.wantLease();
    expect(plan.startLease(6_020, 4)).toBe(true);

    expect(plan.retryAt(6_500)).toBe(true);
    expect(plan.retryAt(6_700), "a later retry sets no earlier wake-up").toBe(false);
    expect(plan.retryAt(6_400)).toBe(true);
    expect(plan.startLease(6_300, 4)).toBe(false);
    expect(plan.startLease(6_400, 4)).toBe(true);
    // The lease took what was due: a retry is known due no more.
    expect(plan.startLease(6_500, 4)).toBe(false);
    expect(plan.retryAt(7_000)).toBe(true);
  });
});
