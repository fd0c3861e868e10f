import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "./db/schema";
import { testDatabaseTargets, type TestDatabase } from "../db/testing";
import { addFavorite, favoriteSet, listFavorites, removeFavorite } from "./favorites";
import { openPortalTestDatabase } from "./testing";


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
});
