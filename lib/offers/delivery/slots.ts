/**
 * The delivery worker's slot table: how many attempts are in flight to each endpoint, which leased
 * deliveries wait here for a slot, which slots are free, how much the next lease may take, which
 * waiting delivery starts when a slot frees, and that nothing starts once the worker stops. Plain
 * data, no database, timer or clock: the worker does the IO it calls for.
 *
 * An instance has `concurrency` slots, at most `perEndpoint` of them for one endpoint, and holds up
 * to HELD_PER_SLOT deliveries per slot: the one in flight and one waiting, so a slot that frees starts
 * the next at once instead of staying empty until the next round (decision of 2026-11-27). Waiting
 * deliveries start in the order they were admitted, per endpoint.
 */

/** Deliveries held per slot: the one in flight and one waiting to start. */
export const HELD_PER_SLOT = 2;

/** What the table needs of a held delivery: the endpoint it goes to. */
export interface Held {
  endpointId: string;
}

/** What became of an admitted delivery: in flight now, waiting for a slot, or to be given back (read before its endpoint changed). */
export type Admission = "started" | "waiting" | "stale";

export interface SlotLimits {
  /** Attempts in flight on this instance. */
  concurrency: number;
  /** Attempts in flight to one endpoint from this instance. */
  perEndpoint: number;
}

/** The limits of the next lease statement: deliveries in all, per endpoint, and what this instance holds of each endpoint. */
export interface LeaseLimits {
  total: number;
  perEndpoint: number;
  busy: ReadonlyMap<string, number>;
}

/**
 * Whether a lease took all that `limits` let it, in all or of one endpoint, or an endpoint had no room
 * left to lease into: then more may be due, and the next freed slot is worth a lease. One busy endpoint
 * fills its own share long before the instance's room, and judging by the room alone left its backlog
 * to one lease a poll (2 × its slots every 200 ms by default, whatever its speed). An endpoint without
 * a backlog costs one lease that finds nothing.
 */
export function leaseFilled(endpointIds: readonly string[], limits: LeaseLimits): boolean {
  if (endpointIds.length >= limits.total) return true;
  for (const held of limits.busy.values()) if (held >= limits.perEndpoint) return true;
  const taken = new Map<string, number>();
  for (const endpointId of endpointIds) taken.set(endpointId, (taken.get(endpointId) ?? 0) + 1);
  for (const [endpointId, count] of taken) if (count >= limits.perEndpoint - (limits.busy.get(endpointId) ?? 0)) return true;
  return false;
}

export class SlotTable<T extends Held> {
  private readonly inFlight = new Map<string, number>();
  private inFlightTotal = 0;
  /** Deliveries waiting for a slot, per endpoint, in the order they were admitted. */
  private readonly waiting = new Map<string, T[]>();
  private waitingTotal = 0;
  private stopped = false;

  constructor(private readonly limits: SlotLimits) {}

  /** Attempts in flight. */
  get running(): number {
    return this.inFlightTotal;
  }

  /** Deliveries waiting for a slot. */
  get queued(): number {
    return this.waitingTotal;
  }

  /** Deliveries this instance may still take, in all. */
  room(): number {
    return HELD_PER_SLOT * this.limits.concurrency - this.inFlightTotal - this.waitingTotal;
  }

  /** Deliveries held per endpoint (in flight and waiting). */
  held(): ReadonlyMap<string, number> {
    if (this.waitingTotal === 0) return this.inFlight;
    const held = new Map(this.inFlight);
    for (const [endpointId, queue] of this.waiting) held.set(endpointId, (held.get(endpointId) ?? 0) + queue.length);
    return held;
  }

  /** What the next lease may take: the room left, in all and per endpoint. */
  leaseLimits(): LeaseLimits {
    return { total: this.room(), perEndpoint: HELD_PER_SLOT * this.limits.perEndpoint, busy: this.held() };
  }

  private hasSlot(endpointId: string): boolean {
    return this.inFlightTotal < this.limits.concurrency && (this.inFlight.get(endpointId) ?? 0) < this.limits.perEndpoint;
  }

  private occupy(endpointId: string): void {
    this.inFlightTotal += 1;
    this.inFlight.set(endpointId, (this.inFlight.get(endpointId) ?? 0) + 1);
  }

  /**
   * A leased delivery: started (its slot taken) if a slot is free and nothing of its endpoint waits
   * before it; else it waits, unless it is `stale` (read before its endpoint changed here), to be given back.
   */
  admit(held: T, stale: boolean): Admission {
    const queue = this.waiting.get(held.endpointId);
    if (!queue && this.hasSlot(held.endpointId)) {
      this.occupy(held.endpointId);
      return "started";
    }
    if (stale) return "stale";
    if (queue) queue.push(held);
    else this.waiting.set(held.endpointId, [held]);
    this.waitingTotal += 1;
    return "waiting";
  }

  /** An attempt to `endpointId` ended: its slot is free (see next). */
  finished(endpointId: string): void {
    this.inFlightTotal -= 1;
    const left = (this.inFlight.get(endpointId) ?? 1) - 1;
    if (left <= 0) this.inFlight.delete(endpointId);
    else this.inFlight.set(endpointId, left);
  }

  /**
   * Waiting deliveries that start now, their slots taken, while slots are free, oldest first per
   * endpoint; those `mayStart` refuses (their lease is too short for an attempt) leave the table
   * without a slot, to be given back. Nothing starts once the table is stopped.
   */
  next(mayStart: (held: T) => boolean): { start: T[]; expired: T[] } {
    const start: T[] = [];
    const expired: T[] = [];
    if (this.stopped || this.waitingTotal === 0) return { start, expired };
    for (const [endpointId, queue] of this.waiting) {
      while (queue.length > 0 && this.hasSlot(endpointId)) {
        const next = queue.shift()!;
        this.waitingTotal -= 1;
        if (!mayStart(next)) expired.push(next);
        else {
          this.occupy(endpointId);
          start.push(next);
        }
      }
      if (queue.length === 0) this.waiting.delete(endpointId);
      if (this.inFlightTotal >= this.limits.concurrency) break;
    }
    return { start, expired };
  }

  /** Every waiting delivery leaves the table, to be given back (stopping, or the endpoints changed here). */
  drain(): T[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.waitingTotal = 0;
    return all;
  }

  /** From now on nothing waiting starts (see next); the attempts in flight still end through `finished`. */
  stop(): void {
    this.stopped = true;
  }
}
