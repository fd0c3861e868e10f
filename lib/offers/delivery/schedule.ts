/**
 * When a failed delivery is tried again: exponential backoff with jitter, for about 24 hours, then
 * the delivery is failed (a dead letter the portal can replay). Injectable, so tests run the same
 * code with delays of milliseconds.
 */
export interface RetryPolicy {
  /** Wait before retry n (n = 1 … length); after the last retry fails, the delivery fails. */
  delaysMs: readonly number[];
  /** Each wait is spread by ±jitter (0.2 = ±20 %), so endpoints that failed together do not retry together. */
  jitter: number;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The documented schedule (docs/operations/reward-delivery.md): 12 attempts, the first at once, then after
 * 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 3 h, 4 h, 6 h and 7 h (± 20 %): the last one about
 * 24 h after the first, then failed.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  delaysMs: [5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, 1 * HOUR, 2 * HOUR, 3 * HOUR, 4 * HOUR, 6 * HOUR, 7 * HOUR],
  jitter: 0.2,
};

/** The wait before the next attempt after `tries` attempts failed, or null when the delivery has failed for good. */
export function nextRetryDelay(policy: RetryPolicy, tries: number, random: () => number = Math.random): number | null {
  const base = policy.delaysMs[tries - 1];
  if (base === undefined) return null;
  return Math.max(0, Math.round(base * (1 + policy.jitter * (2 * random() - 1))));
}
