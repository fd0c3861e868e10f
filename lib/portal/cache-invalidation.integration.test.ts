import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { openDatabase, type Subscription } from "../db";
import { createScratchPostgres } from "@/test-support/db/test-databases";
import * as schema from "./db/schema";
import type { PortalDbHandle } from "./db/database";
import { followCacheInvalidations } from "./cache-invalidation";
import { addFavorite, configureFavoritesCache, favoriteSet, removeFavorite } from "./favorites";
import { configureTokenCache, createToken, revokeToken, verifyToken } from "./tokens";
import { portalMigrations } from "./db/database";

const HOUR = 3_600_000;

/** Two portal instances on one PostgreSQL database, each with caches that would otherwise answer for an hour. */
describe.skipIf(!process.env.TEST_DATABASE_URL)("caches of two portal instances on one PostgreSQL", () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let direct: pg.Client;
  const instances: Array<{ handle: PortalDbHandle; listening: boolean[]; subscription: Subscription | null }> = [];
  const open = async () => {
    const handle = await openDatabase({ url: scratch.url, schema, ...portalMigrations, poolSize: 3 });
    configureTokenCache(handle.db, { ttlMs: HOUR, maxEntries: 100 });
    configureFavoritesCache(handle.db, { ttlMs: HOUR, maxEntries: 100 });
    const listening: boolean[] = [];
    const subscription = await followCacheInvalidations(handle, { onListening: (state) => listening.push(state) });
    const instance = { handle, listening, subscription };
    instances.push(instance);
    await expect.poll(() => listening).toEqual([true]);
    return instance;
  };
  /** Changes the table without telling anyone (the trigger off), as a lost notification would. */
  const silently = async (change: () => Promise<unknown>) => {
    await direct.query("alter table component_favorites disable trigger component_favorites_notify");
    try {
      await change();
    } finally {
      await direct.query("alter table component_favorites enable trigger component_favorites_notify");
    }
  };
  const names = async (db: PortalDbHandle["db"], user: string) => [...(await favoriteSet(db, user))];

  beforeAll(async () => {
    scratch = await createScratchPostgres({ prefix: "cache_follow", template: portalMigrations });
    direct = new pg.Client({ connectionString: scratch.url });
    await direct.connect();
  });
  afterAll(async () => {
    await direct?.end();
    for (const { handle } of instances) await handle.close();
    await scratch?.drop();
  });

  it("a star or unstar on one instance is seen by the other's next read, though its entry would live an hour", async () => {
    const a = await open();
    const b = await open();
    expect(await names(a.handle.db, "alice")).toEqual([]);
    // A answers from its cache: a change nobody is told of does not show there.
    await silently(() => direct.query("insert into component_favorites (user_id, component_name) values ('alice', 'unseen')"));
    expect(await names(a.handle.db, "alice")).toEqual([]);

    await addFavorite(b.handle.db, "alice", "checkout-api");
    await expect.poll(() => names(a.handle.db, "alice")).toEqual(["checkout-api", "unseen"]);
    await removeFavorite(b.handle.db, "alice", "unseen");
    await expect.poll(() => names(a.handle.db, "alice")).toEqual(["checkout-api"]);
    // Plain SQL is heard too (the trigger, not the portal's code, sends the notification).
    await direct.query("delete from component_favorites where user_id = 'alice'");
    await expect.poll(() => names(a.handle.db, "alice")).toEqual([]);
  });

  it("a token revoked on one instance is refused by the other, though it verified it a moment ago", async () => {
    const [a, b] = instances;
    const { token, id } = await createToken(b!.handle.db, { id: "ci-bot", name: "CI bot", groups: [] }, "pipeline");
    expect((await verifyToken(a!.handle.db, token))?.owner.id).toBe("ci-bot");
    expect(await revokeToken(b!.handle.db, id)).toBe(true);
    await expect.poll(() => verifyToken(a!.handle.db, token)).toBeNull();
  });

  it("an instance that lost its listening connection keeps no entry from before; it listens again and follows changes", async () => {
    const [a, b] = instances;
    expect(await names(a!.handle.db, "bob")).toEqual([]);
    await silently(async () => {
      await direct.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name like 'listen %'");
      await expect.poll(() => a!.listening.slice(1, 2)).toEqual([false]);
      // Not heard: no notification, and no connection to hear one on.
      await direct.query("insert into component_favorites (user_id, component_name) values ('bob', 'missed')");
    });
    expect(await names(a!.handle.db, "bob")).toEqual(["missed"]);
    await expect.poll(() => a!.listening, { timeout: 10_000 }).toEqual([true, false, true]);
    expect(await names(a!.handle.db, "bob")).toEqual(["missed"]);
    await addFavorite(b!.handle.db, "bob", "inventory");
    await expect.poll(() => names(a!.handle.db, "bob")).toEqual(["inventory", "missed"]);
  });
});
