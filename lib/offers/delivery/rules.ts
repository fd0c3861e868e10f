/**
 * The pure rules of webhook delivery: what an attempt sends, what its result makes of the delivery
 * (delivered, a retry per ./schedule, or failed), how long a lease lasts and when what is left of one
 * is too short for an attempt. No database, clock or network: callers pass the time in.
 */
import type { webhookDeliveries } from "../db/schema";
import type { EndpointRow } from "./endpoints";
import { toRewardGrantedEvent, type RewardEventRow } from "./events";
import { nextRetryDelay, type RetryPolicy } from "./schedule";
import type { AttemptResult } from "./sender";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A leased delivery with what sending it needs: its event (null for a test event) and its endpoint (null when deleted meanwhile). */
export interface LeasedDelivery {
  delivery: DeliveryRow;
  event: RewardEventRow | null;
  endpoint: EndpointRow | null;
}

/** What an attempt changed: delivered, a retry at `nextAttemptAt`, or failed for good. */
export interface Outcome {
  status: "delivered" | "pending" | "failed";
  nextAttemptAt: Date | null;
}

/** One finished attempt of a leased delivery. */
export interface CompletedAttempt {
  deliveryId: number;
  token: string;
  attemptedAt: Date;
  result: AttemptResult;
  outcome: Outcome;
}

export function outcomeOf(result: AttemptResult, triesBefore: number, now: Date, policy: RetryPolicy, random?: () => number): Outcome {
  if (result.ok) return { status: "delivered", nextAttemptAt: null };
  const delay = nextRetryDelay(policy, triesBefore + 1, random);
  if (delay === null) return { status: "failed", nextAttemptAt: null };
  return { status: "pending", nextAttemptAt: new Date(now.getTime() + delay) };
}

/** The JSON body of a delivery: its reward event as the feed shows it, or the message it carries (a test event). */
export function messageBody(delivery: DeliveryRow, event: RewardEventRow | null): string | null {
  if (delivery.rewardEventId !== null) return event ? JSON.stringify(toRewardGrantedEvent(event)) : null;
  return delivery.payload ? JSON.stringify(delivery.payload) : null;
}

/**
 * What an attempt of a leased delivery sends: its body, to its endpoint. Or why it cannot be sent at
 * all, failed with that reason rather than retried: its endpoint was deleted meanwhile (its deliveries
 * go with it), or there is nothing to send.
 */
export function whatToSend({ delivery, event, endpoint }: LeasedDelivery): { endpoint: EndpointRow; body: string } | { unsendable: string } {
  const body = messageBody(delivery, event);
  if (!endpoint) return { unsendable: "the endpoint was deleted" };
  if (body === null) return { unsendable: "the event is missing" };
  return { endpoint, body };
}

/**
 * How long a delivery stays leased, and renewed for while this instance holds it (in flight or
 * waiting for a slot), every third of it, in one statement for everything held. An instance that
 * dies holding deliveries gives them up when this runs out: a few seconds, whatever the attempts'
 * deadline (their leases used to run 3 × the deadline + 1 s, 31 s by default, all that while
 * unsent). Tests pass a longer one.
 */
export const LEASE_MS = 5_000;

/** How often the leases held are renewed: three renewals fit in a lease, so one late or failed renewal costs none. */
export const leaseRenewalMs = (leaseMs: number) => Math.max(1, Math.floor(leaseMs / 3));

/**
 * What a lease must have left for a waiting delivery to start on it: a renewal's period. Less means
 * a renewal is late by a whole period or failed (the database away), and another instance may take
 * the delivery soon: it is given back instead.
 */
export const leaseLeftToStart = (leaseMs: number) => leaseRenewalMs(leaseMs);

/** Whether a delivery leased (for `leaseMs`) until `until` may still start an attempt at `now` (ms); else it is given back. */
export function mayStartOn(until: number, now: number, leaseMs: number): boolean {
  return until >= now + leaseLeftToStart(leaseMs);
}

/** The wait after `failures` rounds in a row failed (the database away, most likely): doubling from the poll, at most 5 s. */
export function failedRoundWaitMs(pollMs: number, failures: number): number {
  return Math.min(pollMs * 2 ** failures, 5_000);
}
