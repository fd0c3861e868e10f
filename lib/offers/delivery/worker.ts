/**
 * The delivery worker of one instance: it fans committed reward events out into deliveries, leases
 * due deliveries (./queue) and sends them (./sender), each on its own, never more than
 * `concurrency` at once nor more than `perEndpoint` to one endpoint, so a slow or dead endpoint
 * holds a few slots for at most the timeout and never the claims or other games' deliveries.
 *
 * It holds up to as many deliveries again as it has slots, waiting here in the order they were
 * leased: a slot that frees starts the next at once. Without them a slot stayed empty until the
 * next round, so one endpoint's rate per instance was capped at `perEndpoint` per round (about
 * 2,000/s at 64, however fast the endpoint answered). A waiting delivery starts only while its lease
 * has the attempt's deadline and 1 s left; else it is given back (due at once, for any instance).
 *
 * A round is a statement or two: fan out (new deliveries come leased to this instance, with their
 * events and endpoints), and, when something else may be due (retries, replays, deliveries given
 * back), a lease of those. Rounds run when a claim committed on this instance in a game with an
 * endpoint for it (granted), when a replay or a test event made deliveries due here (due), when a
 * scheduled retry is due, every `pollMs` otherwise, and again while there is more work than a round
 * took, but at most every MIN_ROUND_MS: at the claims rate a round takes every event of the last few
 * milliseconds together. A claim in a game without an endpoint wakes nothing: the next poll moves
 * the cursor past its event. Outcomes are written in batches, one statement for the attempts that
 * finished in the last FLUSH_MS.
 */
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import type { Clock } from "../clock";
import { systemClock } from "../clock";
import type { OffersDatabase } from "../db";
import type { SecretBox } from "../secret-box";
import type { AddressPolicy } from "./address-guard";
import { signingSecrets, type DeliveryChange, type EndpointRow } from "./endpoints";
import { completeAttempts, ensureFanOutCursor, fanOut, leaseDue, messageBody, outcomeOf, releaseLease, type CompletedAttempt, type LeasedDelivery } from "./queue";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./schedule";
import { createSender, type Sender } from "./sender";

/** A leased delivery waiting for a slot: its lease token and end (ms). */
interface Waiting {
  token: string;
  until: number;
  leased: LeasedDelivery;
}

export interface DeliveryWorkerOptions {
  db: OffersDatabase;
  box: SecretBox;
  addressPolicy: AddressPolicy;
  clock?: Clock;
  retry?: RetryPolicy;
  /** Deadline of one attempt (OFFERS_WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Idle polling period (OFFERS_WEBHOOK_POLL_MS). */
  pollMs: number;
  /** Attempts in flight on this instance (OFFERS_WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Attempts in flight to one endpoint from this instance (OFFERS_WEBHOOK_ENDPOINT_CONCURRENCY). */
  perEndpoint: number;
  /** Events fanned out per round. */
  fanOutBatch?: number;
  logger?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Tests make jitter deterministic. */
  random?: () => number;
  /** Replaces the HTTP sender (tests). */
  sender?: Sender;
}

/**
 * How long a delivery stays leased: a wait behind the attempts in flight (at most their deadline),
 * its own attempt's deadline, then as long again (at least 1 s) to write its outcome. An instance
 * that dies holding it gives it up when this runs out.
 */
export const leaseMsFor = (timeoutMs: number) => 3 * timeoutMs + 1_000;

/** Deliveries held per slot: the one in flight and one waiting to start (see above). */
const HELD_PER_SLOT = 2;

/** Shortest time from one round's start to the next (see loop). */
const MIN_ROUND_MS = 25;
/** Longest wait of a finished attempt before its outcome is written (with the others finished meanwhile). */
const FLUSH_MS = 25;

export class DeliveryWorker {
  private readonly clock: Clock;
  private readonly retry: RetryPolicy;
  private readonly sender: Sender;
  private readonly fanOutBatch: number;
  private readonly inFlight = new Map<string, number>();
  private inFlightTotal = 0;
  /** Leased deliveries waiting for a slot, per endpoint, oldest first. */
  private readonly waiting = new Map<string, Waiting[]>();
  private waitingTotal = 0;
  private running: Promise<void> | undefined;
  private stopped = false;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private readonly interrupt = new AbortController();
  private readonly sends = new Set<Promise<void>>();
  private readonly secretCache = new Map<string, { updatedAt: number; secrets: string[]; checkedAt: number }>();
  /** Finished attempts waiting to be written, the write under way, and the timer of the next one. */
  private finished: CompletedAttempt[] = [];
  private flushing: Promise<void> | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  /** Lease what is due at the next round (a full lease left more, deliveries were given back). */
  private leaseWanted = true;
  private lastLeaseAt = 0;
  /** The earliest retry this instance scheduled (a round leases then), and its wake-up. */
  private nextDueAt = Infinity;
  private dueTimer: NodeJS.Timeout | undefined;
  private cursorReady = false;
  /**
   * The games with an enabled endpoint for reward.granted, as the last round read them; undefined
   * when unknown (before the first round, after a change of endpoints here), when every claim wakes.
   * Another instance's change is seen by the next round here, at most `pollMs` away, which is also
   * the longest a claim waits for its round when this set is behind.
   */
  private subscribedGames: Set<string> | undefined;
  /** Bumped by each change of endpoints here, so a round that read before it does not restore the old set. */
  private endpointsVersion = 0;
  /**
   * A claim woke the worker and no round has fanned out an event since: the fan-out reads only events
   * older than every transaction still running on the server, so an older transaction (of any
   * database there) can hide a committed claim's event for a while. Rounds then come again after
   * MIN_ROUND_MS, doubling up to `pollMs`, instead of after a whole poll.
   */
  private grantWaiting = false;
  private grantRetryMs = 0;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.clock = options.clock ?? systemClock;
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.sender = options.sender ?? createSender({ policy: options.addressPolicy, timeoutMs: options.timeoutMs, maxSockets: options.concurrency });
    this.fanOutBatch = options.fanOutBatch ?? 500;
    // Every attempt in flight listens for the stop (up to `concurrency` at once): not a leak.
    setMaxListeners(0, this.interrupt.signal);
  }

  start(): void {
    this.running ??= this.loop();
  }

  /** Something may be ready now (a slot freed, a retry due, stopping): poll without waiting. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** A reward.granted event of the game committed on this instance: a round now if the game may have an endpoint for it. */
  granted(gameId: string): void {
    if (this.subscribedGames && !this.subscribedGames.has(gameId)) return;
    this.grantWaiting = true;
    this.grantRetryMs = 0;
    this.wake();
  }

  /** Deliveries were made due now on this instance (a replay, a test event): lease them at once. */
  due(): void {
    this.leaseWanted = true;
    this.wake();
  }

  /**
   * An endpoint was created, changed or removed on this instance: every claim wakes until a round has
   * read them again, and the deliveries waiting here are given back, as they carry the endpoint as it
   * was (its URL, whether it is enabled); the next round leases them with the endpoint as it is.
   */
  endpointsChanged(): void {
    this.endpointsVersion += 1;
    this.subscribedGames = undefined;
    if (this.waitingTotal > 0 && !this.stopped) void this.giveBackWaiting();
  }

  /** Follows the claims of `engine` and the endpoint changes, replays and test events of `endpoints`; answers the unsubscribe. */
  follow(engine: { onRewardGranted(listener: (gameId: string) => void): () => void }, endpoints: { onChange(listener: (change: DeliveryChange) => void): () => void }): () => void {
    const stopGrants = engine.onRewardGranted((gameId) => this.granted(gameId));
    const stopChanges = endpoints.onChange((change) => (change === "endpoints" ? this.endpointsChanged() : this.due()));
    return () => {
      stopGrants();
      stopChanges();
    };
  }

  /** Stops polling, interrupts attempts in flight and gives their deliveries back (due at once, for any instance). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.dueTimer);
    this.wake();
    await this.running;
    this.interrupt.abort();
    await this.giveBackWaiting();
    await this.idle();
    this.sender.close();
  }

  /** One round: fan out, lease and start sending. Answers whether more work is likely ready now. */
  async round(): Promise<boolean> {
    const now = this.clock.now();
    const db = this.options.db;
    if (!this.cursorReady) {
      await ensureFanOutCursor(db, now);
      this.cursorReady = true;
    }
    const leaseMs = leaseMsFor(this.options.timeoutMs);
    const endpointsVersion = this.endpointsVersion;
    // New deliveries come leased to this instance as far as it has room: in the normal case nothing
    // but the outcome is written later. The rest are due now, for the next lease here or elsewhere.
    const fresh = { token: randomUUID(), until: new Date(now.getTime() + leaseMs) };
    const fanned = await fanOut(db, now, this.fanOutBatch, {
      ...fresh,
      total: this.roomTotal(),
      perEndpoint: HELD_PER_SLOT * this.options.perEndpoint,
      busy: this.held(),
    });
    if (endpointsVersion === this.endpointsVersion) this.subscribedGames = new Set(fanned.subscribedGames);
    if (fanned.events > 0) this.grantWaiting = false;
    const stale: Waiting[] = [];
    for (const leased of fanned.leased) this.admit({ token: fresh.token, until: fresh.until.getTime(), leased }, endpointsVersion, stale);
    if (fanned.queued > fanned.leased.length) this.leaseWanted = true;
    // Other due deliveries (retries, replays, what was given back, another instance's that ran out):
    // when something is known to be due, after a full lease, else every pollMs.
    const free = this.roomTotal();
    const at = Date.now();
    if (free > 0 && (this.leaseWanted || at >= this.nextDueAt || at - this.lastLeaseAt >= this.options.pollMs)) {
      this.leaseWanted = false;
      this.lastLeaseAt = at;
      this.nextDueAt = Infinity;
      const lease = await leaseDue(db, now, { total: free, perEndpoint: HELD_PER_SLOT * this.options.perEndpoint, busy: this.held(), leaseMs });
      for (const leased of lease.deliveries) this.admit({ token: lease.token, until: lease.until.getTime(), leased }, endpointsVersion, stale);
      if (lease.deliveries.length === free) this.leaseWanted = true;
    }
    if (stale.length > 0) await this.giveBack(stale);
    return fanned.events === this.fanOutBatch;
  }

  /** Resolves when every delivery held has been attempted (or given back) and its outcome is written. */
  async idle(): Promise<void> {
    while (this.sends.size > 0 || this.waitingTotal > 0 || this.finished.length > 0 || this.flushing) {
      await Promise.allSettled([...this.sends]);
      await this.flush();
    }
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      let more = false;
      const started = Date.now();
      try {
        this.woken = false;
        more = await this.round();
        failures = 0;
      } catch (error) {
        failures += 1;
        // The database is away, most likely: say so once in a while, and back off a little.
        if (failures === 1 || failures % 30 === 0) this.options.logger?.warn({ err: error, failures }, "webhook delivery round failed; retrying");
      }
      if (this.stopped) break;
      if (!more && !this.woken) await this.sleep(failures > 0 ? Math.min(this.options.pollMs * 2 ** failures, 5_000) : this.idleMs());
      // At the claims rate every claim and every finished attempt wakes the worker: rounds at most every
      // MIN_ROUND_MS take what came meanwhile together, instead of two statements per event.
      const wait = MIN_ROUND_MS - (Date.now() - started);
      if (wait > 0 && !this.stopped) await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** How long to sleep after a round with nothing more to do: a poll, or less while a claim's event is awaited. */
  private idleMs(): number {
    if (!this.grantWaiting) return this.options.pollMs;
    this.grantRetryMs = this.grantRetryMs === 0 ? MIN_ROUND_MS : this.grantRetryMs * 2;
    if (this.grantRetryMs < this.options.pollMs) return this.grantRetryMs;
    this.grantWaiting = false;
    return this.options.pollMs;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref?.();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        done();
      };
    });
  }

  /** Deliveries this instance may still take, in all. */
  private roomTotal(): number {
    return HELD_PER_SLOT * this.options.concurrency - this.inFlightTotal - this.waitingTotal;
  }

  /** Deliveries held per endpoint (in flight and waiting), for the lease statements. */
  private held(): Map<string, number> {
    if (this.waitingTotal === 0) return this.inFlight;
    const held = new Map(this.inFlight);
    for (const [endpointId, queue] of this.waiting) held.set(endpointId, (held.get(endpointId) ?? 0) + queue.length);
    return held;
  }

  private hasSlot(endpointId: string): boolean {
    return this.inFlightTotal < this.options.concurrency && (this.inFlight.get(endpointId) ?? 0) < this.options.perEndpoint;
  }

  /**
   * A leased delivery: sent now if a slot is free and nothing of its endpoint waits before it, else it
   * waits; but one read before an endpoint changed here (`readAt` is behind) goes into `stale`, to be given back.
   */
  private admit(held: Waiting, readAt: number, stale: Waiting[]): void {
    const endpointId = held.leased.delivery.endpointId;
    const queue = this.waiting.get(endpointId);
    if (!queue && this.hasSlot(endpointId)) return this.dispatch(held.token, held.leased);
    if (readAt !== this.endpointsVersion) {
      stale.push(held);
      return;
    }
    if (queue) queue.push(held);
    else this.waiting.set(endpointId, [held]);
    this.waitingTotal += 1;
  }

  /** Starts waiting deliveries while slots are free; those whose lease is too short for an attempt are given back. */
  private startWaiting(): void {
    if (this.stopped || this.waitingTotal === 0) return;
    const tooLate = this.clock.now().getTime() + this.options.timeoutMs + 1_000;
    const expiring: Waiting[] = [];
    for (const [endpointId, queue] of this.waiting) {
      while (queue.length > 0 && this.hasSlot(endpointId)) {
        const next = queue.shift()!;
        this.waitingTotal -= 1;
        if (next.until < tooLate) expiring.push(next);
        else this.dispatch(next.token, next.leased);
      }
      if (queue.length === 0) this.waiting.delete(endpointId);
      if (this.inFlightTotal >= this.options.concurrency) break;
    }
    if (expiring.length > 0) void this.giveBack(expiring);
  }

  /** Every waiting delivery due again at once, for any instance (stopping, or the endpoints changed here). */
  private async giveBackWaiting(): Promise<void> {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.waitingTotal = 0;
    await this.giveBack(all);
  }

  private giveBack(held: Waiting[]): Promise<void> {
    const byToken = new Map<string, number[]>();
    for (const { token, leased } of held) {
      const ids = byToken.get(token);
      if (ids) ids.push(leased.delivery.id);
      else byToken.set(token, [leased.delivery.id]);
    }
    const now = this.clock.now();
    const released = [...byToken].map(([token, ids]) =>
      releaseLease(this.options.db, token, ids, now).catch((error: unknown) =>
        this.options.logger?.error({ err: error, deliveries: ids }, "webhook deliveries could not be given back; due again when their leases end"),
      ),
    );
    this.leaseWanted = true;
    this.wake();
    const all = Promise.all(released).then(() => undefined);
    this.sends.add(all);
    return all.finally(() => this.sends.delete(all));
  }

  private dispatch(token: string, leased: LeasedDelivery): void {
    const { delivery } = leased;
    this.inFlightTotal += 1;
    this.inFlight.set(delivery.endpointId, (this.inFlight.get(delivery.endpointId) ?? 0) + 1);
    const send = this.attempt(token, leased)
      .catch((error: unknown) => this.options.logger?.error({ err: error, deliveryId: delivery.id }, "webhook attempt failed unexpectedly; it is retried when its lease ends"))
      .finally(() => {
        this.inFlightTotal -= 1;
        const left = (this.inFlight.get(delivery.endpointId) ?? 1) - 1;
        if (left <= 0) this.inFlight.delete(delivery.endpointId);
        else this.inFlight.set(delivery.endpointId, left);
        this.sends.delete(send);
        this.startWaiting();
        // A slot freed: worth a round only when more is waiting than the last lease took.
        if (this.leaseWanted) this.wake();
      });
    this.sends.add(send);
  }

  private async attempt(token: string, { delivery, event, endpoint }: LeasedDelivery): Promise<void> {
    const attemptedAt = this.clock.now();
    const body = messageBody(delivery, event);
    if (!endpoint || body === null) {
      // Deleted meanwhile (its deliveries go with it), or nothing to send: record why rather than loop.
      const result = { ok: false, statusCode: null, error: endpoint ? "the event is missing" : "the endpoint was deleted", latencyMs: 0 };
      this.record({ deliveryId: delivery.id, token, attemptedAt, result, outcome: { status: "failed", nextAttemptAt: null } });
      return;
    }
    const result = await this.sender.send(endpoint.url, this.secretsOf(endpoint, attemptedAt), { id: delivery.messageId, body, timestamp: attemptedAt }, this.interrupt.signal);
    if (this.interrupt.signal.aborted && !result.ok) {
      // Stopping: the attempt was cut short by us, not by the receiver. Due again at once elsewhere.
      await releaseLease(this.options.db, token, [delivery.id], this.clock.now());
      return;
    }
    this.record({ deliveryId: delivery.id, token, attemptedAt, result, outcome: outcomeOf(result, delivery.tries, this.clock.now(), this.retry, this.options.random) });
  }

  /** Queues an outcome for the next batched write, at most FLUSH_MS away. */
  private record(attempt: CompletedAttempt): void {
    this.finished.push(attempt);
    this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_MS);
    const retryAt = attempt.outcome.status === "pending" ? attempt.outcome.nextAttemptAt : null;
    if (retryAt) this.dueAt(retryAt.getTime() + FLUSH_MS);
  }

  /** Makes a round lease at `at` (a retry this instance scheduled). */
  private dueAt(at: number): void {
    if (at >= this.nextDueAt) return;
    this.nextDueAt = at;
    clearTimeout(this.dueTimer);
    this.dueTimer = setTimeout(() => this.wake(), Math.max(0, at - Date.now()));
    this.dueTimer.unref?.();
  }

  private flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.flushing || this.finished.length === 0) return this.flushing ?? Promise.resolve();
    const batch = this.finished;
    this.finished = [];
    this.flushing = completeAttempts(this.options.db, batch)
      .then(
        () => {},
        (error: unknown) =>
          // Unwritten outcomes: those deliveries are sent again when their leases end (at least once).
          this.options.logger?.error({ err: error, deliveries: batch.map((a) => a.deliveryId) }, "webhook outcomes could not be recorded; retried when their leases end"),
      )
      .finally(() => {
        this.flushing = undefined;
        if (this.finished.length > 0) void this.flush();
      });
    return this.flushing;
  }

  /** Decrypted secrets, cached per endpoint version (a rotation changes updatedAt). */
  private secretsOf(endpoint: EndpointRow, now: Date): string[] {
    const cached = this.secretCache.get(endpoint.endpointId);
    // Re-read once a minute too: the previous secret stops signing when it expires.
    if (cached && cached.updatedAt === endpoint.updatedAt.getTime() && now.getTime() - cached.checkedAt < 60_000) return cached.secrets;
    const secrets = signingSecrets(this.options.box, endpoint, now);
    this.secretCache.set(endpoint.endpointId, { updatedAt: endpoint.updatedAt.getTime(), secrets, checkedAt: now.getTime() });
    return secrets;
  }
}
