/**
 * One attempt of a leased delivery, as named stages, each a value of its own type:
 *
 *   leased ──prepare──▶ sending ──send──▶ sent ──judge──▶ outcome ──(the worker's batched write)──▶ recorded
 *      │                                   │
 *      └─ nothing to send: outcome failed  └─ interrupted (cut short by our own stop): the lease is given back
 *
 * prepare and judge are pure; send is the one network call. Each stage takes one attempt, and the
 * write of outcomes already takes many in one statement (queue.completeAttempts), so a stage that
 * later works on a batch changes its caller's loop, not the types.
 */
import type { EndpointRow } from "./endpoints";
import { signingSecrets } from "./endpoints";
import { outcomeOf, whatToSend, type CompletedAttempt, type LeasedDelivery } from "./rules";
import type { RetryPolicy } from "./schedule";
import type { SecretBox } from "../secret-box";
import type { AttemptResult, Sender, SignedMessage } from "./sender";

/** A delivery leased to this instance, in flight or waiting for a slot: its lease token and end (ms). */
export interface Leased {
  stage: "leased";
  token: string;
  until: number;
  endpointId: string;
  leased: LeasedDelivery;
}

/** Ready to go: the signed message, where, with which secrets. */
export interface Sending {
  stage: "sending";
  token: string;
  deliveryId: number;
  /** Attempts made before this one (the schedule's position). */
  tries: number;
  url: string;
  secrets: string[];
  message: SignedMessage;
}

/** The receiver's answer, or why there was none. */
export interface Sent {
  stage: "sent";
  token: string;
  deliveryId: number;
  tries: number;
  attemptedAt: Date;
  result: AttemptResult;
}

/** Cut short by this instance's stop, not by the receiver: nothing is recorded, the lease is given back. */
export interface Interrupted {
  stage: "interrupted";
  token: string;
  deliveryId: number;
}

/** What the attempt makes of the delivery, waiting for the batched write. */
export interface Judged {
  stage: "outcome";
  attempt: CompletedAttempt;
}

export function leasedStage(token: string, until: Date, leased: LeasedDelivery): Leased {
  return { stage: "leased", token, until: until.getTime(), endpointId: leased.delivery.endpointId, leased };
}

/**
 * The attempt made at `now`: the message signed with the endpoint's secrets; or, when there is nothing
 * to send (the endpoint deleted, the event missing), at once its outcome: failed with the reason.
 */
export function prepare(held: Leased, now: Date, secretsOf: (endpoint: EndpointRow) => string[]): Sending | Judged {
  const { delivery } = held.leased;
  const what = whatToSend(held.leased);
  if ("unsendable" in what) {
    const result: AttemptResult = { ok: false, statusCode: null, error: what.unsendable, latencyMs: 0 };
    return { stage: "outcome", attempt: { deliveryId: delivery.id, token: held.token, attemptedAt: now, result, outcome: { status: "failed", nextAttemptAt: null } } };
  }
  return {
    stage: "sending",
    token: held.token,
    deliveryId: delivery.id,
    tries: delivery.tries,
    url: what.endpoint.url,
    secrets: secretsOf(what.endpoint),
    message: { id: delivery.messageId, body: what.body, timestamp: now },
  };
}

/** Sends the message; a failure while `signal` is aborted was our stop's doing: interrupted. */
export async function send(sending: Sending, sender: Sender, signal: AbortSignal): Promise<Sent | Interrupted> {
  const result = await sender.send(sending.url, sending.secrets, sending.message, signal);
  if (signal.aborted && !result.ok) return { stage: "interrupted", token: sending.token, deliveryId: sending.deliveryId };
  return { stage: "sent", token: sending.token, deliveryId: sending.deliveryId, tries: sending.tries, attemptedAt: sending.message.timestamp, result };
}

/** What the answer makes of the delivery at `now`: delivered, retried per the policy, or failed. */
export function judge(sent: Sent, now: Date, policy: RetryPolicy, random?: () => number): Judged {
  const { deliveryId, token, attemptedAt, result } = sent;
  return { stage: "outcome", attempt: { deliveryId, token, attemptedAt, result, outcome: outcomeOf(result, sent.tries, now, policy, random) } };
}

/** An endpoint's decrypted signing secrets, cached per endpoint version (a rotation changes updatedAt). */
export class SigningSecretCache {
  private readonly cache = new Map<string, { updatedAt: number; secrets: string[]; checkedAt: number }>();

  constructor(private readonly box: SecretBox) {}

  of(endpoint: EndpointRow, now: Date): string[] {
    const cached = this.cache.get(endpoint.endpointId);
    // Re-read once a minute too: the previous secret stops signing when it expires.
    if (cached && cached.updatedAt === endpoint.updatedAt.getTime() && now.getTime() - cached.checkedAt < 60_000) return cached.secrets;
    const secrets = signingSecrets(this.box, endpoint, now);
    this.cache.set(endpoint.endpointId, { updatedAt: endpoint.updatedAt.getTime(), secrets, checkedAt: now.getTime() });
    return secrets;
  }
}
