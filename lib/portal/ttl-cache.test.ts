import { describe, expect, it } from "vitest";
import { cachePerHandle, processWide, TtlCache } from "./ttl-cache";

describe("TtlCache", () => {
  it("answers an entry until its TTL ends", () => {
    let clock = 0;
    const cache = new TtlCache<string, number>({ ttlMs: 100, maxEntries: 10, now: () => clock });
    cache.set("a", 1, cache.epoch);
    clock = 99;
    expect(cache.get("a")).toBe(1);
    clock = 100;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("keeps at most maxEntries, dropping the least recently used", () => {
    const cache = new TtlCache<string, number>({ ttlMs: 1_000, maxEntries: 2 });
    cache.set("a", 1, cache.epoch);
    cache.set("b", 2, cache.epoch);
    expect(cache.get("a")).toBe(1);
    cache.set("c", 3, cache.epoch);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
  });

  it("does not keep a value read across an invalidation (a read that raced a revocation)", () => {
    const cache = new TtlCache<string, number>({ ttlMs: 1_000, maxEntries: 10 });
    const epoch = cache.epoch;
    cache.invalidate("a");
    cache.set("a", 1, epoch);
    expect(cache.get("a")).toBeUndefined();
    cache.set("a", 2, cache.epoch);
    expect(cache.get("a")).toBe(2);
    cache.clear();
    expect(cache.get("a")).toBeUndefined();
  });

  it("keeps nothing with TTL 0", () => {
    const cache = new TtlCache<string, number>({ ttlMs: 0, maxEntries: 10 });
    cache.set("a", 1, cache.epoch);
    expect(cache.get("a")).toBeUndefined();
  });

  it("paused, answers and keeps nothing, and drops what a read in flight would bring; resumed, starts from empty", () => {
    const cache = new TtlCache<string, number>({ ttlMs: 1_000, maxEntries: 10 });
    cache.set("a", 1, cache.epoch);
    const inFlight = cache.epoch;
    cache.pause();
    expect(cache.get("a")).toBeUndefined();
    cache.set("b", 2, cache.epoch);
    expect(cache.get("b")).toBeUndefined();
    cache.resume();
    cache.set("c", 3, inFlight);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("c")).toBeUndefined();
    cache.set("d", 4, cache.epoch);
    expect(cache.get("d")).toBe(4);
  });
});

describe("cachePerHandle", () => {
  it("a cache configured anew stays paused if its handle's was", () => {
    const caches = cachePerHandle<object, string, number>("test-per-handle", { ttlMs: 1_000, maxEntries: 10 });
    const handle = {};
    caches.of(handle).pause();
    caches.configure(handle, { ttlMs: 5_000, maxEntries: 10 });
    caches.of(handle).set("a", 1, caches.of(handle).epoch);
    expect(caches.of(handle).get("a")).toBeUndefined();
    caches.of(handle).resume();
    caches.of(handle).set("a", 1, caches.of(handle).epoch);
    expect(caches.of(handle).get("a")).toBe(1);
  });
});

describe("processWide", () => {
  it("answers the same map to every caller of one name", () => {
    const key = {};
    processWide<object, number>("test-shared").set(key, 1);
    expect(processWide<object, number>("test-shared").get(key)).toBe(1);
    expect(processWide<object, number>("test-other").get(key)).toBeUndefined();
  });
});
