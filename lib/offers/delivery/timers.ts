/** One-shot timers by kind, each kind armed at most once: the one place an owner sets, fires early and clears them. */
export class Timers<Kind extends string> {
  private readonly armed = new Map<Kind, { timer: NodeJS.Timeout; fire: () => void }>();

  /** Runs `fire` after `ms`, replacing the timer of this kind if armed. `unref`: it keeps no process alive. */
  set(kind: Kind, ms: number, fire: () => void, unref: boolean): void {
    this.clear(kind);
    const timer = setTimeout(() => {
      this.armed.delete(kind);
      fire();
    }, ms);
    if (unref) timer.unref?.();
    this.armed.set(kind, { timer, fire });
  }

  isSet(kind: Kind): boolean {
    return this.armed.has(kind);
  }

  /** Runs the timer of this kind now, if armed. */
  fireNow(kind: Kind): void {
    const armed = this.armed.get(kind);
    if (!armed) return;
    this.clear(kind);
    armed.fire();
  }

  /** A wait of `ms`, cut short by fireNow(kind). */
  wait(kind: Kind, ms: number, unref: boolean): Promise<void> {
    return new Promise((resolve) => this.set(kind, ms, resolve, unref));
  }

  clear(kind: Kind): void {
    clearTimeout(this.armed.get(kind)?.timer);
    this.armed.delete(kind);
  }
}
