/**
 * When the delivery worker runs a round and what the round does, as plain data (no database, timer or
 * clock; the worker passes the time in):
 * - whether a claim wakes it: only in a game with an enabled endpoint for reward.granted, as the last
 *   round read them (decision of 2026-11-26); every claim while that is unknown;
 * - how long it sleeps after a round with nothing more to do: a poll, or less while a claim's event
 *   is awaited (an older transaction can hide it from the fan-out for a while), or more while nothing
 *   happens (each quiet round doubles the sleep, up to IDLE_BACKOFF_POLLS polls): an idle round costs two
 *   statements, which on the embedded database were most of an idle service's CPU;
 * - whether a round also leases due deliveries (retries, replays, what was given back): when something
 *   is known to be due, after a full lease, else every poll;
 * - how soon the next round may start: rounds under a steady flow of claims take what came in the last
 *   ROUND_BATCH_MS together; a backlog drains at a round every MIN_ROUND_MS.
 */

/**
 * Shortest time from one round's start to the next while a backlog drains (the last round's fan-out
 * was full, or a lease took all it was let); also the first wait for a claim's hidden event.
 */
export const MIN_ROUND_MS = 25;

/**
 * Shortest time from one round's start to the next otherwise: at the claims rate every claim wakes the
 * worker, and a round's statements cost about as much again as the deliveries in it, so rounds take
 * what came in the last ROUND_BATCH_MS together. Twice MIN_ROUND_MS: about a fifth less CPU per
 * delivered event at 500/s, for about 10 ms more latency at p50 and 20 ms at p99 (decision of 2026-12-07).
 */
export const ROUND_BATCH_MS = 50;

/**
 * The longest idle sleep, in polls. Only what this instance is not told of waits for it: deliveries
 * another instance gave back or left leased when it died (their leases run far longer), and another
 * instance's change of endpoints; claims, replays, test events and retries here wake the worker at once.
 */
export const IDLE_BACKOFF_POLLS = 16;

export class RoundPlan {
  /** Lease what is due at the next round (a full lease left more, deliveries were given back, a replay). */
  private leaseWanted = true;
  private lastLeaseAt = 0;
  /** The earliest retry this instance scheduled: a round leases then. */
  private nextDueAt = Infinity;
  /**
   * The games with an enabled endpoint for reward.granted, as the last round read them; undefined
   * when unknown (before the first round, after a change of endpoints here), when every claim wakes.
   * Another instance's change is seen by the next round here, at most IDLE_BACKOFF_POLLS polls away
   * (a quiet worker sleeps that long), which is also the longest a claim waits for its round when this
   * set is behind.
   */
  private subscribedGames: Set<string> | undefined;
  /** Bumped by each change of endpoints here, so a round that read before it does not restore the old set. */
  private version = 0;
  /**
   * A claim woke the worker and no round has fanned out an event since, or the last round found
   * committed events hidden: the fan-out reads only events older than every transaction still running
   * on the server, so an older transaction (of any database there) can hide a committed event for a
   * while. Rounds then come again after MIN_ROUND_MS, doubling up to `pollMs`, instead of after a
   * whole poll (or a backed-off idle sleep: events a restarted worker or another instance's claims left
   * would otherwise wait for it).
   */
  private eventsAwaited = false;
  private awaitedRetryMs = 0;
  /** Idle sleeps in a row since something happened here: each doubles the next, up to IDLE_BACKOFF_POLLS polls. */
  private quietSleeps = 0;

  constructor(private readonly pollMs: number) {}

  /** A reward.granted event of the game committed on this instance: answers whether it is worth a round now. */
  granted(gameId: string): boolean {
    if (this.subscribedGames && !this.subscribedGames.has(gameId)) return false;
    this.quietSleeps = 0;
    this.eventsAwaited = true;
    this.awaitedRetryMs = 0;
    return true;
  }

  /** The version of the endpoints as changed here; a round notes it before it reads them. */
  get endpointsVersion(): number {
    return this.version;
  }

  /** An endpoint was created, changed or removed here: every claim wakes until a round has read them again. */
  endpointsChanged(): void {
    this.version += 1;
    this.subscribedGames = undefined;
    this.quietSleeps = 0;
  }

  /** A round read the subscribed games, having noted `version` before: kept unless the endpoints changed here meanwhile. */
  endpointsRead(version: number, subscribedGames: string[]): void {
    if (version === this.version) this.subscribedGames = new Set(subscribedGames);
  }

  /**
   * A round fanned out `events` events, and found committed events still `hidden` or not. Hidden
   * events are awaited like a claim's, keeping the backoff they reached: a transaction that stays
   * open for minutes costs a round a poll, no more.
   */
  fannedOut(events: number, hidden = false): void {
    if (events > 0 || hidden) this.quietSleeps = 0;
    if (hidden) this.eventsAwaited = true;
    else if (events > 0) {
      this.eventsAwaited = false;
      this.awaitedRetryMs = 0;
    }
  }

  /** How long to sleep after a round with nothing more to do: a poll, less while a claim's event is awaited, more while nothing happens. */
  idleMs(): number {
    if (!this.eventsAwaited) {
      const polls = Math.min(2 ** this.quietSleeps, IDLE_BACKOFF_POLLS);
      if (polls < IDLE_BACKOFF_POLLS) this.quietSleeps += 1;
      return this.pollMs * polls;
    }
    this.awaitedRetryMs = this.awaitedRetryMs === 0 ? MIN_ROUND_MS : Math.min(this.awaitedRetryMs * 2, this.pollMs);
    if (this.awaitedRetryMs < this.pollMs) return this.awaitedRetryMs;
    this.eventsAwaited = false;
    return this.pollMs;
  }

  /**
   * How soon after a round's start the next may start: MIN_ROUND_MS while a backlog drains (`full`: the
   * round's fan-out read a whole batch, or a lease is wanted again), ROUND_BATCH_MS otherwise.
   */
  paceMs(full: boolean): number {
    return full || this.leaseWanted ? MIN_ROUND_MS : ROUND_BATCH_MS;
  }

  /** More may be due than the worker took: the next round leases (a full lease, deliveries given back, a replay). */
  wantLease(): void {
    this.leaseWanted = true;
    this.quietSleeps = 0;
  }

  get wantsLease(): boolean {
    return this.leaseWanted;
  }

  /**
   * Whether a round at `now` (ms) with room for `free` deliveries leases due ones: when something is
   * known to be due, else every poll. A yes counts as the lease made.
   */
  startLease(now: number, free: number): boolean {
    if (free <= 0 || !(this.leaseWanted || now >= this.nextDueAt || now - this.lastLeaseAt >= this.pollMs)) return false;
    this.leaseWanted = false;
    this.lastLeaseAt = now;
    this.nextDueAt = Infinity;
    return true;
  }

  /** A lease got `got` deliveries; `filled`: it took all it was let (in all or of an endpoint), so it likely left more. */
  leased(got: number, filled: boolean): void {
    if (filled) this.leaseWanted = true;
    if (got > 0) this.quietSleeps = 0;
  }

  /** A retry this instance scheduled is due at `at` (ms): answers whether that is earlier than any known, so the worker sets its wake-up. */
  retryAt(at: number): boolean {
    if (at >= this.nextDueAt) return false;
    this.nextDueAt = at;
    this.quietSleeps = 0;
    return true;
  }
}
