/**
 * One timer for the heartbeats of every stream of a hub, instead of an interval per stream (a
 * Timeout, its closure and its timer-list bookkeeping per open stream). Streams are spread over
 * slots and one slot beats per tick, so each stream still gets a heartbeat once per period, and the
 * writes of thousands of streams are spread over the period instead of landing in one tick.
 */

/** Slots of a wheel: one per second of the period, at most 16 (a 30 s period ticks every 1.9 s). */
const MAX_SLOTS = 16;

export class HeartbeatWheel<T> {
  private readonly slots: Array<Set<T>>;
  /** The slot that beats at the next tick. */
  private next = 0;
  private members = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly periodMs: number,
    private readonly beat: (member: T) => void,
    slotCount = Math.min(MAX_SLOTS, Math.max(1, Math.floor(periodMs / 1_000))),
  ) {
    this.slots = Array.from({ length: slotCount }, () => new Set<T>());
  }

  /**
   * Beats `member` once per period from now on. It joins the slot that beats last, so its first
   * heartbeat comes between (slots − 1) / slots of the period and one period after it joined.
   */
  add(member: T): void {
    const slot = this.slots[(this.next + this.slots.length - 1) % this.slots.length]!;
    if (slot.has(member)) return;
    slot.add(member);
    this.members += 1;
    this.timer ??= setInterval(() => this.tick(), this.periodMs / this.slots.length);
  }

  /** Stops beating `member`; the timer stops with the last one. */
  remove(member: T): void {
    for (const slot of this.slots) {
      if (!slot.delete(member)) continue;
      this.members -= 1;
      if (this.members === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
      return;
    }
  }

  get size(): number {
    return this.members;
  }

  /** Whether the wheel's timer is set (it is only while it has members). */
  get running(): boolean {
    return this.timer !== undefined;
  }

  private tick(): void {
    const slot = this.slots[this.next]!;
    this.next = (this.next + 1) % this.slots.length;
    for (const member of slot) this.beat(member);
  }
}
