import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as schema from "./db/schema";
import { testDatabaseTargets, type TestDatabase } from "@/test-support/db/test-databases";
import { addFavorite, configureFavoritesCache, defaultFavoritesCacheSettings, favoriteSet, listFavorites, removeFavorite } from "./favorites";
import { openPortalTestDatabase } from "@/test-support/portal/test-portal";


describe.each(testDatabaseTargets())("favorites on %s", (target) => {
  let handle: TestDatabase<typeof schema>;
  beforeAll(async () => {
    handle = await openPortalTestDatabase(target);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("keeps favorites apart between users, idempotently", async () => {
    const db = handle.db;
    expect(await addFavorite(db, "alice", "checkout-api")).toBe(true);
    expect(await addFavorite(db, "alice", "checkout-api")).toBe(false);
    expect(await addFavorite(db, "alice", "inventory")).toBe(true);
    expect(await addFavorite(db, "bob", "leaderboards")).toBe(true);
    expect(await listFavorites(db, "alice")).toEqual(["checkout-api", "inventory"]);
    expect(await listFavorites(db, "bob")).toEqual(["leaderboards"]);
    expect(await listFavorites(db, "carol")).toEqual([]);
    expect(await removeFavorite(db, "bob", "checkout-api")).toBe(false);
    expect(await listFavorites(db, "alice")).toEqual(["checkout-api", "inventory"]);
    expect(await removeFavorite(db, "alice", "checkout-api")).toBe(true);
    expect([...(await favoriteSet(db, "alice"))]).toEqual(["inventory"]);
    expect([...(await favoriteSet(db, "bob"))]).toEqual(["leaderboards"]);
  });

  it("concurrent stars of one component by one user leave one row", async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => addFavorite(handle.db, "dave", "matchmaking")));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await listFavorites(handle.db, "dave")).toEqual(["matchmaking"]);
  });

  describe("cache of favorite sets", () => {
    let clock = 0;
    const now = () => clock;
    /** A star set by another instance: the database changes, this process is not told. */
    const starElsewhere = (userId: string, componentName: string) => handle.db.insert(schema.componentFavorites).values({ userId, componentName });
    afterEach(() => configureFavoritesCache(handle.db, defaultFavoritesCacheSettings));

    it("a user's own star and unstar are seen at once by the next read", async () => {
      configureFavoritesCache(handle.db, { ttlMs: 3_600_000, maxEntries: 10 }, now);
      expect([...(await favoriteSet(handle.db, "erin"))]).toEqual([]);
      expect(await addFavorite(handle.db, "erin", "checkout-api")).toBe(true);
      expect([...(await favoriteSet(handle.db, "erin"))]).toEqual(["checkout-api"]);
      expect(await addFavorite(handle.db, "erin", "inventory")).toBe(true);
      expect([...(await favoriteSet(handle.db, "erin"))]).toEqual(["checkout-api", "inventory"]);
      expect(await removeFavorite(handle.db, "erin", "checkout-api")).toBe(true);
      expect([...(await favoriteSet(handle.db, "erin"))]).toEqual(["inventory"]);
    });

    it("a change made elsewhere shows after the TTL at most; one user's change leaves the others' entries", async () => {
      configureFavoritesCache(handle.db, { ttlMs: 1_000, maxEntries: 10 }, now);
      expect([...(await favoriteSet(handle.db, "frank"))]).toEqual([]);
      await starElsewhere("frank", "leaderboards");
      await addFavorite(handle.db, "gina", "leaderboards");
      expect([...(await favoriteSet(handle.db, "frank"))]).toEqual([]);
      clock += 1_000;
      expect([...(await favoriteSet(handle.db, "frank"))]).toEqual(["leaderboards"]);
    });

    it("with TTL 0 every read goes to the database", async () => {
      configureFavoritesCache(handle.db, { ttlMs: 0, maxEntries: 10 }, now);
      expect([...(await favoriteSet(handle.db, "hugo"))]).toEqual([]);
      await starElsewhere("hugo", "matchmaking");
      expect([...(await favoriteSet(handle.db, "hugo"))]).toEqual(["matchmaking"]);
    });
  });
});
