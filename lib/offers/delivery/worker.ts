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
 * has a renewal's period left; else it is given back (due at once, for any instance).
 *
 * Leases are short (LEASE_MS, a few seconds) and renewed every third of that, in one statement for
 * every delivery held here, so what an instance held when it died is due again within seconds.
 *
 * A round is a statement or two: fan out (new deliveries come leased to this instance, with their
 * events and endpoints), and, when something else may be due (retries, replays, deliveries given
 * back), a lease of those. Rounds run when a claim committed on this instance in a game with an
 * endpoint for it (granted), when a replay or a test event made deliveries due here (due), when a
 * scheduled retry is due, every `pollMs` otherwise, and again while there is more work than a round
 * took, but at most every ROUND_BATCH_MS (MIN_ROUND_MS while a backlog drains): at the claims rate a
 * round takes every event of the last few tens of milliseconds together. A claim in a game without
 * an endpoint wakes nothing: the next poll moves the cursor past its event. Outcomes are written in
 * batches, one statement for the attempts that finished in the last FLUSH_MS.
 *
 * The decisions are plain data beside it: the slot table (./slots: what is in flight, what waits, what
 * the next lease may take, what starts when a slot frees), the round plan (./rounds: when a round runs
 * and whether it leases) and the stages of an attempt (./attempt: leased → sending → sent → outcome,
 * then recorded in the batched write). The worker does the IO they call for and owns every timer.
 */
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import type { Clock } from "../clock";
import { systemClock } from "../clock";
import type { OffersDatabase } from "../db";
import type { SecretBox } from "../secret-box";
import type { AddressPolicy } from "./address-guard";
import { judge, leasedStage, prepare, send, SigningSecretCache, type Judged, type Leased } from "./attempt";
import type { DeliveryChange } from "./endpoints";
import { completeAttempts, ensureFanOutCursor, fanOut, leaseDue, releaseLease, renewLeases } from "./queue";
import { RoundPlan } from "./rounds";
import { failedRoundWaitMs, LEASE_MS, leaseRenewalMs, mayStartOn, type CompletedAttempt } from "./rules";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./schedule";
import { createSender, type Sender } from "./sender";
import { leaseFilled, SlotTable } from "./slots";
import { Timers } from "./timers";

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
  /** How long a lease lasts between renewals (LEASE_MS; tests set a longer one). */
  leaseMs?: number;
}

/** Longest wait of a finished attempt before its outcome is written (with the others finished meanwhile). */
const FLUSH_MS = 25;

/**
 * The worker's timers, each kind armed at most once: the idle sleep between rounds, the pause that
 * keeps rounds paced (./rounds), the next batched write of outcomes, the wake-up for the
 * earliest retry this instance scheduled, and the next renewal of the leases held.
 */
type TimerKind = "sleep" | "pace" | "flush" | "due" | "renew";

export class DeliveryWorker {
  private readonly clock: Clock;
  private readonly retry: RetryPolicy;
  private readonly sender: Sender;
  private readonly fanOutBatch: number;
  private readonly leaseMs: number;
  private readonly slots: SlotTable<Leased>;
  private readonly plan: RoundPlan;
  private readonly timers = new Timers<TimerKind>();
  private readonly secrets: SigningSecretCache;
  private readonly interrupt = new AbortController();
  /** Every delivery held here, in flight or waiting for a slot, by id: the leases to renew. */
  private readonly held = new Map<number, Leased>();
  private renewing: Promise<void> | undefined;
  /** Attempts and give-backs under way (idle and stop wait for them). */
  private readonly work = new Set<Promise<void>>();
  /** Finished attempts waiting to be written, and the write under way. */
  private finished: CompletedAttempt[] = [];
  private flushing: Promise<void> | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private woken = false;
  private cursorReady = false;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.clock = options.clock ?? systemClock;
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.sender = options.sender ?? createSender({ policy: options.addressPolicy, timeoutMs: options.timeoutMs, maxSockets: options.concurrency });
    this.fanOutBatch = options.fanOutBatch ?? 500;
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.slots = new SlotTable({ concurrency: options.concurrency, perEndpoint: options.perEndpoint });
    this.plan = new RoundPlan(options.pollMs);
    this.secrets = new SigningSecretCache(options.box);
    // Every attempt in flight listens for the stop (up to `concurrency` at once): not a leak.
    setMaxListeners(0, this.interrupt.signal);
  }

  start(): void {
    this.running ??= this.loop();
  }

  /** Something may be ready now (a slot freed, a retry due, stopping): poll without waiting. */
  wake(): void {
    this.woken = true;
    this.timers.fireNow("sleep");
  }

  /** A reward.granted event of the game committed on this instance: a round now if the game may have an endpoint for it. */
  granted(gameId: string): void {
    if (this.plan.granted(gameId)) this.wake();
  }

  /** Deliveries were made due now on this instance (a replay, a test event): lease them at once. */
  due(): void {
    this.plan.wantLease();
    this.wake();
  }

  /**
   * An endpoint was created, changed or removed on this instance: every claim wakes until a round has
   * read them again, and the deliveries waiting here are given back, as they carry the endpoint as it
   * was (its URL, whether it is enabled); the next round leases them with the endpoint as it is.
   */
  endpointsChanged(): void {
    this.plan.endpointsChanged();
    if (this.slots.queued > 0 && !this.stopped) void this.giveBack(this.slots.drain());
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
    this.slots.stop();
    this.timers.clear("due");
    this.timers.clear("renew");
    this.wake();
    await this.running;
    this.interrupt.abort();
    await this.giveBack(this.slots.drain());
    await this.idle();
    await this.renewing;
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
    const readAt = this.plan.endpointsVersion;
    // New deliveries come leased to this instance as far as it has room: in the normal case nothing
    // but the outcome is written later. The rest are due now, for the next lease here or elsewhere.
    const fresh = { token: randomUUID(), until: new Date(now.getTime() + this.leaseMs) };
    const fanned = await fanOut(db, now, this.fanOutBatch, { ...fresh, ...this.slots.leaseLimits() });
    this.plan.endpointsRead(readAt, fanned.subscribedGames);
    this.plan.fannedOut(fanned.events, fanned.hidden);
    const stale: Leased[] = [];
    for (const leased of fanned.leased) this.admit(leasedStage(fresh.token, fresh.until, leased), readAt, stale);
    if (fanned.queued > fanned.leased.length) this.plan.wantLease();
    // Other due deliveries (retries, replays, what was given back, another instance's that ran out):
    // when something is known to be due, after a full lease, else every pollMs.
    const limits = this.slots.leaseLimits();
    if (this.plan.startLease(Date.now(), limits.total)) {
      const lease = await leaseDue(db, now, { ...limits, leaseMs: this.leaseMs });
      for (const leased of lease.deliveries) this.admit(leasedStage(lease.token, lease.until, leased), readAt, stale);
      this.plan.leased(lease.deliveries.length, leaseFilled(lease.deliveries.map((d) => d.delivery.endpointId), limits));
    }
    if (stale.length > 0) await this.giveBack(stale);
    return fanned.events === this.fanOutBatch;
  }

  /** Resolves when every delivery held has been attempted (or given back) and its outcome is written. */
  async idle(): Promise<void> {
    while (this.work.size > 0 || this.slots.queued > 0 || this.finished.length > 0 || this.flushing) {
      await Promise.allSettled([...this.work]);
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
      if (!more && !this.woken) await this.timers.wait("sleep", failures > 0 ? failedRoundWaitMs(this.options.pollMs, failures) : this.plan.idleMs(), true);
      // At the claims rate every claim and every finished attempt wakes the worker: paced rounds take what
      // came meanwhile together, instead of two statements per event (./rounds: ROUND_BATCH_MS, or
      // MIN_ROUND_MS while a backlog drains).
      const wait = this.plan.paceMs(more) - (Date.now() - started);
      if (wait > 0 && !this.stopped) await this.timers.wait("pace", wait, false);
    }
  }

  /** A leased delivery: in flight now, waiting here, or (read before an endpoint changed here: `readAt` is behind) into `stale`, to be given back. */
  private admit(held: Leased, readAt: number, stale: Leased[]): void {
    const admission = this.slots.admit(held, readAt !== this.plan.endpointsVersion);
    if (admission === "stale") {
      stale.push(held);
      return;
    }
    this.hold(held);
    if (admission === "started") this.dispatch(held);
  }

  /** A delivery is held here from its lease to its attempt's end or its give-back; while any is, leases are renewed. */
  private hold(held: Leased): void {
    this.held.set(held.leased.delivery.id, held);
    if (!this.timers.isSet("renew") && !this.stopped) this.timers.set("renew", leaseRenewalMs(this.leaseMs), () => void this.renew(), true);
  }

  private unhold(held: Leased): void {
    if (this.held.get(held.leased.delivery.id) === held) this.held.delete(held.leased.delivery.id);
  }

  /**
   * Renews the lease of every delivery held here, in one statement, then again a period later while
   * any is held. One that fails (the database away) is retried at the next period; a lease that runs
   * out meanwhile makes the delivery due elsewhere (at least once: its attempt here still ends).
   */
  private renew(): Promise<void> {
    this.timers.clear("renew");
    if (this.renewing || this.stopped || this.held.size === 0) return this.renewing ?? Promise.resolve();
    const now = this.clock.now();
    const until = new Date(now.getTime() + this.leaseMs);
    const batch = [...this.held.values()];
    this.renewing = renewLeases(this.options.db, batch.map((h) => ({ id: h.leased.delivery.id, token: h.token })), until)
      .then(
        (renewed) => {
          const ids = new Set(renewed);
          for (const held of batch) if (ids.has(held.leased.delivery.id)) held.until = until.getTime();
        },
        (error: unknown) => this.options.logger?.warn({ err: error, deliveries: batch.length }, "webhook leases could not be renewed; retried at the next period"),
      )
      .finally(() => {
        this.renewing = undefined;
        if (this.held.size > 0 && !this.stopped) this.timers.set("renew", leaseRenewalMs(this.leaseMs), () => void this.renew(), true);
      });
    return this.renewing;
  }

  /** Starts waiting deliveries while slots are free; those whose lease is too short for an attempt are given back. */
  private startWaiting(): void {
    let now: number | undefined;
    const { start, expired } = this.slots.next((held) => mayStartOn(held.until, (now ??= this.clock.now().getTime()), this.leaseMs));
    for (const held of start) this.dispatch(held);
    if (expired.length > 0) void this.giveBack(expired);
  }

  /** Gives deliveries held here back, due at once for any instance; a round leases what is due. */
  private giveBack(held: Leased[]): Promise<void> {
    const byToken = new Map<string, number[]>();
    for (const one of held) this.unhold(one);
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
    this.plan.wantLease();
    this.wake();
    const all = Promise.all(released).then(() => undefined);
    this.work.add(all);
    return all.finally(() => this.work.delete(all));
  }

  /** Runs the attempt of a delivery whose slot the table has taken; its end frees the slot and starts what waits. */
  private dispatch(held: Leased): void {
    const attempt = this.attempt(held)
      .catch((error: unknown) => this.options.logger?.error({ err: error, deliveryId: held.leased.delivery.id }, "webhook attempt failed unexpectedly; it is retried when its lease ends"))
      .finally(() => {
        this.unhold(held);
        this.slots.finished(held.endpointId);
        this.work.delete(attempt);
        this.startWaiting();
        // A slot freed: worth a round only when more is waiting than the last lease took.
        if (this.plan.wantsLease) this.wake();
      });
    this.work.add(attempt);
  }

  /** leased → sending → sent → outcome (see ./attempt); the outcome is then recorded in the next batched write. */
  private async attempt(held: Leased): Promise<void> {
    const attemptedAt = this.clock.now();
    const ready = prepare(held, attemptedAt, (endpoint) => this.secrets.of(endpoint, attemptedAt));
    if (ready.stage === "outcome") {
      this.record(ready);
      return;
    }
    const sent = await send(ready, this.sender, this.interrupt.signal);
    if (sent.stage === "interrupted") {
      // Stopping: the attempt was cut short by us, not by the receiver. Due again at once elsewhere.
      await releaseLease(this.options.db, sent.token, [sent.deliveryId], this.clock.now());
      return;
    }
    this.record(judge(sent, this.clock.now(), this.retry, this.options.random));
  }

  /** Queues an outcome for the next batched write, at most FLUSH_MS away; a retry it schedules here wakes a round then. */
  private record({ attempt }: Judged): void {
    this.finished.push(attempt);
    if (!this.timers.isSet("flush")) this.timers.set("flush", FLUSH_MS, () => void this.flush(), false);
    const retryAt = attempt.outcome.status === "pending" ? attempt.outcome.nextAttemptAt : null;
    if (retryAt) {
      const at = retryAt.getTime() + FLUSH_MS;
      if (this.plan.retryAt(at)) this.timers.set("due", Math.max(0, at - Date.now()), () => this.wake(), true);
    }
  }

  /** The recorded stage: writes the finished attempts in one statement (those whose lease is still ours). */
  private flush(): Promise<void> {
    this.timers.clear("flush");
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
}
