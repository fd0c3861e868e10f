/**
 * In-process mutual exclusion, at the bottom layer so the catalog (one writer per config repository)
 * and source control (one holder per repository) share it without importing each other.
 */

/** A promise-chain mutex: one holder at a time, in this process. */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn, fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** One holder at a time per key (e.g. per repository), in this process; idle keys are forgotten. */
export class KeyedMutex {
  private readonly locks = new Map<string, { mutex: Mutex; users: number }>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    let slot = this.locks.get(key);
    if (!slot) {
      slot = { mutex: new Mutex(), users: 0 };
      this.locks.set(key, slot);
    }
    slot.users++;
    try {
      return await slot.mutex.run(fn);
    } finally {
      slot.users--;
      if (slot.users === 0) this.locks.delete(key);
    }
  }
}
