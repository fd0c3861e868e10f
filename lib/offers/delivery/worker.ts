/**
 * The delivery worker of one instance: it fans committed reward events out into deliveries, leases
 * due deliveries (./queue) and sends them (./sender), each on its own, never more than
 * `concurrency` at once nor more than `perEndpoint` to one endpoint, so a slow or dead endpoint
 * holds a few slots for at most the timeout and never the claims or other games' deliveries.
 * It polls every `pollMs`, at once when a claim committed on this instance (wake), and again
 * without waiting while there is more work than one round took.
 */
import type { Clock } from "../clock";
import { systemClock } from "../clock";
import type { OffersDatabase } from "../db";
import { webhookEndpoints } from "../db/schema";
import type { SecretBox } from "../secret-box";
import { inArray } from "drizzle-orm";
import type { AddressPolicy } from "./address-guard";
import { signingSecrets, type EndpointRow } from "./endpoints";
import { completeAttempt, fanOut, leaseDue, messageBodies, outcomeOf, releaseLease, type DeliveryRow } from "./queue";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./schedule";
import { createSender, type Sender } from "./sender";

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
 * How long a delivery stays leased: the attempt's deadline, then as long again (at least 1 s) to
 * write its outcome. An instance that dies holding it gives it up when this runs out.
 */
export const leaseMsFor = (timeoutMs: number) => 2 * timeoutMs + 1_000;

export class DeliveryWorker {
  private readonly clock: Clock;
  private readonly retry: RetryPolicy;
  private readonly sender: Sender;
  private readonly fanOutBatch: number;
  private readonly inFlight = new Map<string, number>();
  private inFlightTotal = 0;
  private running: Promise<void> | undefined;
  private stopped = false;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private readonly interrupt = new AbortController();
  private readonly sends = new Set<Promise<void>>();
  private readonly secretCache = new Map<string, { updatedAt: number; secrets: string[]; checkedAt: number }>();

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.clock = options.clock ?? systemClock;
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.sender = options.sender ?? createSender({ policy: options.addressPolicy, timeoutMs: options.timeoutMs });
    this.fanOutBatch = options.fanOutBatch ?? 500;
  }

  start(): void {
    this.running ??= this.loop();
  }

  /** Something may be ready now (a claim committed, a slot freed): poll without waiting. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops polling, interrupts attempts in flight and gives their deliveries back (due at once, for any instance). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.wake();
    await this.running;
    this.interrupt.abort();
    await Promise.allSettled([...this.sends]);
    this.sender.close();
  }

  /** One round: fan out, lease and start sending. Answers whether more work is likely ready now. */
  async round(): Promise<boolean> {
    const now = this.clock.now();
    const fanned = await fanOut(this.options.db, now, this.fanOutBatch);
    const free = this.options.concurrency - this.inFlightTotal;
    let full = false;
    if (free > 0) {
      const lease = await leaseDue(this.options.db, now, {
        total: free,
        perEndpoint: this.options.perEndpoint,
        busy: this.inFlight,
        leaseMs: leaseMsFor(this.options.timeoutMs),
      });
      if (lease.deliveries.length > 0) await this.dispatch(lease.token, lease.deliveries);
      full = lease.deliveries.length === free;
    }
    return fanned === this.fanOutBatch || full;
  }

  /** Resolves when every attempt started so far has finished and been recorded. */
  async idle(): Promise<void> {
    while (this.sends.size > 0) await Promise.allSettled([...this.sends]);
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      let more = false;
      try {
        this.woken = false;
        more = await this.round();
        failures = 0;
      } catch (error) {
        failures += 1;
        // The database is away, most likely: say so once in a while, and back off a little.
        if (failures === 1 || failures % 30 === 0) this.options.logger?.warn({ err: error, failures }, "webhook delivery round failed; retrying");
      }
      if (!more && !this.woken && !this.stopped) await this.sleep(failures > 0 ? Math.min(this.options.pollMs * 2 ** failures, 5_000) : this.options.pollMs);
    }
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

  private async dispatch(token: string, deliveries: DeliveryRow[]): Promise<void> {
    const db = this.options.db;
    const [bodies, endpoints] = await Promise.all([
      messageBodies(db, deliveries),
      db.select().from(webhookEndpoints).where(inArray(webhookEndpoints.endpointId, [...new Set(deliveries.map((d) => d.endpointId))])),
    ]);
    const byId = new Map(endpoints.map((e) => [e.endpointId, e]));
    for (const delivery of deliveries) {
      const endpoint = byId.get(delivery.endpointId);
      const body = bodies.get(delivery.id);
      this.inFlightTotal += 1;
      this.inFlight.set(delivery.endpointId, (this.inFlight.get(delivery.endpointId) ?? 0) + 1);
      const send = this.attempt(token, delivery, endpoint, body)
        .catch((error: unknown) => this.options.logger?.error({ err: error, deliveryId: delivery.id }, "webhook attempt could not be recorded; it is retried when its lease ends"))
        .finally(() => {
          this.inFlightTotal -= 1;
          const left = (this.inFlight.get(delivery.endpointId) ?? 1) - 1;
          if (left <= 0) this.inFlight.delete(delivery.endpointId);
          else this.inFlight.set(delivery.endpointId, left);
          this.sends.delete(send);
          this.wake();
        });
      this.sends.add(send);
    }
  }

  private async attempt(token: string, delivery: DeliveryRow, endpoint: EndpointRow | undefined, body: string | undefined): Promise<void> {
    const db = this.options.db;
    const attemptedAt = this.clock.now();
    if (!endpoint || body === undefined) {
      // Deleted meanwhile (its deliveries go with it), or nothing to send: record why rather than loop.
      const result = { ok: false, statusCode: null, error: endpoint ? "the event is missing" : "the endpoint was deleted", latencyMs: 0 };
      await completeAttempt(db, delivery, token, attemptedAt, result, { status: "failed", nextAttemptAt: null });
      return;
    }
    if (!endpoint.enabled) {
      // Disabled after the lease: nothing is sent; the delivery waits until it is enabled again.
      await releaseLease(db, token, [delivery.id], attemptedAt);
      return;
    }
    const result = await this.sender.send(endpoint.url, this.secretsOf(endpoint, attemptedAt), { id: delivery.messageId, body, timestamp: attemptedAt }, this.interrupt.signal);
    if (this.interrupt.signal.aborted && !result.ok) {
      // Stopping: the attempt was cut short by us, not by the receiver. Due again at once elsewhere.
      await releaseLease(db, token, [delivery.id], this.clock.now());
      return;
    }
    const outcome = outcomeOf(result, delivery.tries, this.clock.now(), this.retry, this.options.random);
    await completeAttempt(db, delivery, token, attemptedAt, result, outcome);
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
