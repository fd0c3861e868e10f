/**
 * A small in-process cache of the answers of per-request database reads (verified API tokens, a user's
 * favorites): each entry lives `ttlMs` at most, at most `maxEntries` are kept (the least recently used
 * goes first), and an invalidation also wins over a read that was in flight when it happened.
 *
 *   const epoch = cache.epoch;            // before reading the database
 *   const value = await read();
 *   cache.set(key, value, epoch);         // dropped when an invalidation came in between
 */
export interface TtlCacheOptions {
  /** How long an entry is answered; 0 = nothing is kept. */
  ttlMs: number;
  maxEntries: number;
  /** The clock (tests move it). */
  now?: () => number;
}

export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();
  private invalidations = 0;
  private paused = false;
  private readonly now: () => number;

  constructor(private readonly options: TtlCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get ttlMs(): number {
    return this.options.ttlMs;
  }

  /** Read before the database, passed to set(): a value read across an invalidation is not kept. */
  get epoch(): number {
    return this.invalidations;
  }

  get size(): number {
    return this.entries.size;
  }

  /** False while paused: every read goes to the database. */
  get active(): boolean {
    return !this.paused;
  }

  get(key: K): V | undefined {
    if (this.paused) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Most recently used last: the first key is the one to evict.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, epoch: number): void {
    if (this.paused || this.options.ttlMs <= 0 || this.options.maxEntries <= 0 || epoch !== this.invalidations) return;
    this.entries.delete(key);
    while (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { value, expires: this.now() + this.options.ttlMs });
  }

  invalidate(key: K): void {
    this.invalidations++;
    this.entries.delete(key);
  }

  clear(): void {
    this.invalidations++;
    this.entries.clear();
  }

  /** Keeps and answers nothing until resume(): while the changes made elsewhere cannot be heard. */
  pause(): void {
    this.paused = true;
    this.clear();
  }

  /** Caches again, from empty: what changed while paused was not heard. */
  resume(): void {
    this.paused = false;
    this.clear();
  }
}

/**
 * A WeakMap shared by every copy of the calling module in this process: Next.js bundles route handlers
 * and pages apart, each with its own instance of a module, and a cache dropped by one (a revocation in
 * DELETE /api/tokens/:id) must be the one the others read (the authorizer of every route).
 */
export function processWide<K extends object, V>(name: string): WeakMap<K, V> {
  const slot = Symbol.for(`portal.ttl-cache.${name}`);
  const holder = globalThis as unknown as Record<symbol, WeakMap<K, V> | undefined>;
  return (holder[slot] ??= new WeakMap<K, V>());
}

/** How a cache of a per-request read is sized: entries live `ttlMs` (0 = nothing kept), `maxEntries` at most. */
export type CacheSettings = Omit<TtlCacheOptions, "now">;

/**
 * One TtlCache per handle (a database: two databases in tests never answer each other's reads), shared
 * by every bundle of the process (processWide); `configure` replaces a handle's cache with one sized anew
 * (paused if the one it replaces was).
 */
export function cachePerHandle<H extends object, K, V>(name: string, defaults: CacheSettings) {
  const caches = processWide<H, TtlCache<K, V>>(name);
  return {
    of(handle: H): TtlCache<K, V> {
      let cache = caches.get(handle);
      if (!cache) caches.set(handle, (cache = new TtlCache<K, V>(defaults)));
      return cache;
    },
    configure(handle: H, settings: CacheSettings, now?: () => number): void {
      const fresh = new TtlCache<K, V>({ ...settings, now });
      if (caches.get(handle)?.active === false) fresh.pause();
      caches.set(handle, fresh);
    },
  };
}
