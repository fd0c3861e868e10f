/** The pure rules of delivery: what an attempt sends, what its result makes of the delivery, leases and their room. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzParameters } from "@/test-support/fuzz";
import { toRewardGrantedEvent } from "./events";
import { failedRoundWaitMs, LEASE_MS, leaseRenewalMs, mayStartOn, messageBody, outcomeOf, whatToSend } from "./rules";
import { DEFAULT_RETRY_POLICY, nextRetryDelay, type RetryPolicy } from "./schedule";
import type { AttemptResult } from "./sender";
import { deliveryRowFor, endpointRowFor, rewardEventRowFor } from "@/test-support/offers/delivery";

const NOW = new Date(Date.UTC(2026, 0, 1, 12));
const ok: AttemptResult = { ok: true, statusCode: 204, error: null, latencyMs: 12 };
const refused: AttemptResult = { ok: false, statusCode: 503, error: "HTTP 503", latencyMs: 40 };

const arbPolicy: fc.Arbitrary<RetryPolicy> = fc.record({
  delaysMs: fc.array(fc.integer({ min: 0, max: 86_400_000 }), { maxLength: 14 }),
  jitter: fc.double({ min: 0, max: 0.5, noNaN: true }),
});
const arbRandom = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

describe("the outcome of an attempt", () => {
  it("a 2xx delivers, whatever the tries before", () => {
    fc.assert(
      fc.property(arbPolicy, fc.nat({ max: 20 }), (policy, tries) => {
        expect(outcomeOf(ok, tries, NOW, policy)).toEqual({ status: "delivered", nextAttemptAt: null });
      }),
      fuzzParameters(100),
    );
  });

  it("a failure is retried after the schedule's next wait, within its jitter, until the schedule ends; then it fails", () => {
    fc.assert(
      fc.property(arbPolicy, fc.nat({ max: 20 }), arbRandom, (policy, tries, r) => {
        const outcome = outcomeOf(refused, tries, NOW, policy, () => r);
        const base = policy.delaysMs[tries];
        if (base === undefined) {
          expect(outcome).toEqual({ status: "failed", nextAttemptAt: null });
          return;
        }
        expect(outcome.status).toBe("pending");
        const wait = outcome.nextAttemptAt!.getTime() - NOW.getTime();
        expect(wait).toBeGreaterThanOrEqual(Math.floor(base * (1 - policy.jitter)));
        expect(wait).toBeLessThanOrEqual(Math.ceil(base * (1 + policy.jitter)));
        expect(wait).toBe(nextRetryDelay(policy, tries + 1, () => r));
      }),
      fuzzParameters(200),
    );
  });

  it("the documented schedule: 12 attempts over about 24 hours, then failed", () => {
    expect(DEFAULT_RETRY_POLICY.delaysMs).toHaveLength(11);
    expect(DEFAULT_RETRY_POLICY.delaysMs.reduce((sum, wait) => sum + wait, 0)).toBe((5 + 30 + 120 + 600 + 1_800) * 1_000 + (1 + 2 + 3 + 4 + 6 + 7) * 3_600_000);
    const middle = () => 0.5;
    expect(outcomeOf(refused, 0, NOW, DEFAULT_RETRY_POLICY, middle).nextAttemptAt).toEqual(new Date(NOW.getTime() + 5_000));
    expect(outcomeOf(refused, 10, NOW, DEFAULT_RETRY_POLICY, middle).nextAttemptAt).toEqual(new Date(NOW.getTime() + 7 * 3_600_000));
    expect(outcomeOf(refused, 11, NOW, DEFAULT_RETRY_POLICY, middle)).toEqual({ status: "failed", nextAttemptAt: null });
  });
});

describe("what an attempt sends", () => {
  it("a reward event's delivery sends the event as the feed shows it", () => {
    const event = rewardEventRowFor();
    const body = messageBody(deliveryRowFor(), event);
    expect(JSON.parse(body!)).toEqual(JSON.parse(JSON.stringify(toRewardGrantedEvent(event))));
    expect(whatToSend({ delivery: deliveryRowFor(), event, endpoint: endpointRowFor() })).toEqual({ endpoint: endpointRowFor(), body });
  });

  it("a test event sends the message it carries", () => {
    const payload = { id: "msg_1", type: "webhook.test", data: { message: "hello" } };
    const delivery = deliveryRowFor({ rewardEventId: null, payload, eventType: "webhook.test" });
    expect(messageBody(delivery, null)).toBe(JSON.stringify(payload));
  });

  it("nothing to send: the endpoint deleted meanwhile, or the event missing", () => {
    expect(messageBody(deliveryRowFor(), null)).toBeNull();
    expect(messageBody(deliveryRowFor({ rewardEventId: null, payload: null }), null)).toBeNull();
    expect(whatToSend({ delivery: deliveryRowFor(), event: rewardEventRowFor(), endpoint: null })).toEqual({ unsendable: "the endpoint was deleted" });
    expect(whatToSend({ delivery: deliveryRowFor(), event: null, endpoint: null })).toEqual({ unsendable: "the endpoint was deleted" });
    expect(whatToSend({ delivery: deliveryRowFor(), event: null, endpoint: endpointRowFor() })).toEqual({ unsendable: "the event is missing" });
  });
});

describe("leases", () => {
  it("a lease lasts a few seconds and fits three renewals, so one late renewal loses nothing", () => {
    expect(LEASE_MS).toBeLessThanOrEqual(5_000);
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 600_000 }), (leaseMs) => {
        expect(3 * leaseRenewalMs(leaseMs)).toBeLessThanOrEqual(leaseMs);
        // Renewed on time, a waiting delivery may always start; a whole period late, it may not.
        expect(mayStartOn(NOW.getTime() + leaseMs, NOW.getTime() + leaseRenewalMs(leaseMs), leaseMs)).toBe(true);
        expect(mayStartOn(NOW.getTime() + leaseMs, NOW.getTime() + leaseMs - leaseRenewalMs(leaseMs) + 1, leaseMs)).toBe(false);
      }),
      fuzzParameters(100),
    );
  });

  it("a waiting delivery starts only while its lease has a renewal's period left", () => {
    const until = NOW.getTime() + 5_000;
    expect(mayStartOn(until, NOW.getTime() + 5_000 - leaseRenewalMs(5_000), 5_000)).toBe(true);
    expect(mayStartOn(until, NOW.getTime() + 5_000 - leaseRenewalMs(5_000) + 1, 5_000)).toBe(false);
  });

  it("failed rounds wait longer each time, from the poll to at most 5 s", () => {
    expect([1, 2, 3, 10].map((failures) => failedRoundWaitMs(100, failures))).toEqual([200, 400, 800, 5_000]);
  });
});
