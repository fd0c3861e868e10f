/** One holder at a time per key (e.g. per repository), in this process. Reuses the catalog's Mutex. */
import { Mutex } from "../catalog/lock";

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
