/** Time source of the offers domain; tests pass a ManualClock to move time at will. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | number = Date.UTC(2026, 0, 1, 12, 0, 0)) {
    this.current = typeof start === "number" ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(at: Date | number): void {
    this.current = typeof at === "number" ? at : at.getTime();
  }
}
