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
 * How long a delivery stays leased: a wait behind the attempts in flight (at most their deadline),
 * its own attempt's deadline, then as long again (at least 1 s) to write its outcome. An instance
 * that dies holding it gives it up when this runs out.
 */
export const leaseMsFor = (timeoutMs: number) => 3 * timeoutMs + 1_000;

/** What a lease must have left for an attempt to start on it: the attempt's deadline, and 1 s to write its outcome. */
export const leaseLeftToStart = (timeoutMs: number) => timeoutMs + 1_000;

/** Whether a delivery leased until `until` may still start an attempt at `now` (ms); else it is given back. */
export function mayStartOn(until: number, now: number, timeoutMs: number): boolean {
  return until >= now + leaseLeftToStart(timeoutMs);
}

/** The wait after `failures` rounds in a row failed (the database away, most likely): doubling from the poll, at most 5 s. */
export function failedRoundWaitMs(pollMs: number, failures: number): number {
  return Math.min(pollMs * 2 ** failures, 5_000);
}
