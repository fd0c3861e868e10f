import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "./db/schema";
import { testDatabaseTargets, type TestDatabase } from "@/test-support/db/test-databases";
import { configureTokenCache, createToken, defaultTokenCacheSettings, hashToken, listTokens, revokeToken, seedDevToken, verifyToken } from "./tokens";
import { openPortalTestDatabase } from "@/test-support/portal/test-portal";

const ann = { id: "ann", name: "Ann Example", email: "ann@example.com", groups: ["platform/operations"] };

describe.each(testDatabaseTargets())("personal API tokens on %s", (target) => {
  let handle: TestDatabase<typeof schema>;
  beforeAll(async () => {
    handle = await openPortalTestDatabase(target);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("stores only the SHA-256 of a token and shows the token once", async () => {
    const created = await createToken(handle.db, ann, "ci");
    expect(created.token).toMatch(/^pat_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.token.slice(0, 10));
    const [row] = await handle.db.select().from(schema.portalApiTokens).where(eq(schema.portalApiTokens.id, created.id));
    expect(row.tokenHash).toBe(hashToken(created.token));
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(created.token);
    const listed = await listTokens(handle.db, "ann");
    expect(listed.find((t) => t.id === created.id)).toEqual({
      id: created.id,
      name: "ci",
      prefix: created.prefix,
      createdAt: created.createdAt,
      lastUsedAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain(created.token);
  });

  it("verifies a token, names its owner and records the use", async () => {
    const created = await createToken(handle.db, ann, "script");
    const verified = await verifyToken(handle.db, created.token);
    expect(verified).toEqual({
      tokenId: created.id,
      owner: { id: "ann", name: "Ann Example", email: "ann@example.com", groups: ["platform/operations"] },
      grantedRoles: [],
    });
    const [listed] = (await listTokens(handle.db, "ann")).filter((t) => t.id === created.id);
    expect(listed.lastUsedAt).not.toBeNull();
    expect(await verifyToken(handle.db, created.token + "x")).toBeNull();
    expect(await verifyToken(handle.db, "pat_unknown")).toBeNull();
    expect(await verifyToken(handle.db, "")).toBeNull();
  });

  it("revokes: the token stops working and leaves the list; only its owner (or an admin) may revoke", async () => {
    const created = await createToken(handle.db, ann, "to-revoke");
    expect(await revokeToken(handle.db, created.id, "bob")).toBe(false);
    expect(await verifyToken(handle.db, created.token)).not.toBeNull();
    expect(await revokeToken(handle.db, created.id, "ann")).toBe(true);
    expect(await verifyToken(handle.db, created.token)).toBeNull();
    expect((await listTokens(handle.db, "ann")).map((t) => t.id)).not.toContain(created.id);
    expect(await revokeToken(handle.db, created.id, "ann")).toBe(false);
    const other = await createToken(handle.db, ann, "admin-revokes");
    expect(await revokeToken(handle.db, other.id)).toBe(true);
    expect(await verifyToken(handle.db, other.token)).toBeNull();
  });

  describe("cache of verified tokens", () => {
    let clock = 0;
    const now = () => clock;
    const revokeBehindItsBack = (id: string) => handle.db.update(schema.portalApiTokens).set({ revokedAt: new Date() }).where(eq(schema.portalApiTokens.id, id));
    afterEach(() => {
      vi.useRealTimers();
      configureTokenCache(handle.db, defaultTokenCacheSettings);
    });

    it("answers a verified token from memory for the TTL at most (what another instance's revocation waits)", async () => {
      configureTokenCache(handle.db, { ttlMs: 5_000, maxEntries: 10 }, now);
      const created = await createToken(handle.db, ann, "cached");
      expect(await verifyToken(handle.db, created.token)).not.toBeNull();
      await revokeBehindItsBack(created.id);
      clock += 4_999;
      expect((await verifyToken(handle.db, created.token))?.tokenId).toBe(created.id);
      clock += 1;
      expect(await verifyToken(handle.db, created.token)).toBeNull();
    });

    it("a revocation through revokeToken takes effect at once, and an owner's wrong id does not drop the entry", async () => {
      configureTokenCache(handle.db, { ttlMs: 60_000, maxEntries: 10 }, now);
      const created = await createToken(handle.db, ann, "revoked-while-cached");
      expect(await verifyToken(handle.db, created.token)).not.toBeNull();
      expect(await verifyToken(handle.db, created.token)).not.toBeNull();
      expect(await revokeToken(handle.db, created.id, "bob")).toBe(false);
      expect(await verifyToken(handle.db, created.token)).not.toBeNull();
      expect(await revokeToken(handle.db, created.id, "ann")).toBe(true);
      expect(await verifyToken(handle.db, created.token)).toBeNull();
    });

    it("keeps no unknown token: one created meanwhile works at once", async () => {
      configureTokenCache(handle.db, { ttlMs: 60_000, maxEntries: 10 }, now);
      const token = "pat_created-after-a-failed-try-0123456789";
      expect(await verifyToken(handle.db, token)).toBeNull();
      await handle.db.insert(schema.portalApiTokens).values({ userId: "ann", userName: "Ann", groups: [], name: "late", tokenHash: hashToken(token), prefix: token.slice(0, 10) });
      expect((await verifyToken(handle.db, token))?.owner.id).toBe("ann");
    });

    it("with TTL 0 every call reads the database", async () => {
      configureTokenCache(handle.db, { ttlMs: 0, maxEntries: 10 }, now);
      const created = await createToken(handle.db, ann, "uncached");
      expect(await verifyToken(handle.db, created.token)).not.toBeNull();
      await revokeBehindItsBack(created.id);
      expect(await verifyToken(handle.db, created.token)).toBeNull();
    });

    it("seeding PORTAL_DEV_TOKEN over a cached token is seen at once", async () => {
      configureTokenCache(handle.db, { ttlMs: 60_000, maxEntries: 10 }, now);
      const token = "seeded-while-cached-0123456789";
      await handle.db.insert(schema.portalApiTokens).values({ userId: "admin", userName: "admin", groups: [], name: "before the seed", tokenHash: hashToken(token), prefix: token.slice(0, 6) });
      expect((await verifyToken(handle.db, token))?.grantedRoles).toEqual([]);
      await seedDevToken(handle.db, token);
      expect((await verifyToken(handle.db, token))?.grantedRoles).toEqual(["admin"]);
    });

    it("a caller changing the answer does not change what the cache answers next", async () => {
      configureTokenCache(handle.db, { ttlMs: 60_000, maxEntries: 10 }, now);
      const created = await createToken(handle.db, ann, "copied");
      const first = await verifyToken(handle.db, created.token);
      first!.owner.groups.push("admins");
      first!.grantedRoles.push("admin");
      const second = await verifyToken(handle.db, created.token);
      expect(second?.owner.groups).toEqual(["platform/operations"]);
      expect(second?.grantedRoles).toEqual([]);
    });

    it("still records the use once a minute while the token is answered from memory", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date("2026-11-25T10:00:00Z"));
      configureTokenCache(handle.db, { ttlMs: 3_600_000, maxEntries: 10 });
      const created = await createToken(handle.db, ann, "used-from-cache");
      await verifyToken(handle.db, created.token);
      const lastUsed = async () => (await listTokens(handle.db, "ann")).find((t) => t.id === created.id)?.lastUsedAt;
      expect(await lastUsed()).toBe("2026-11-25T10:00:00.000Z");
      vi.setSystemTime(new Date("2026-11-25T10:00:30Z"));
      await verifyToken(handle.db, created.token);
      expect(await lastUsed()).toBe("2026-11-25T10:00:00.000Z");
      vi.setSystemTime(new Date("2026-11-25T10:01:01Z"));
      await verifyToken(handle.db, created.token);
      expect(await lastUsed()).toBe("2026-11-25T10:01:01.000Z");
    });
  });

  it("lists only the owner's tokens", async () => {
    await createToken(handle.db, { id: "bob", name: "Bob", groups: [] }, "bob's");
    expect((await listTokens(handle.db, "bob")).map((t) => t.name)).toEqual(["bob's"]);
    expect((await listTokens(handle.db, "ann")).map((t) => t.name)).not.toContain("bob's");
  });

  it("seeds PORTAL_DEV_TOKEN for admin with the admin role, idempotently", async () => {
    const token = "e2e-admin-token-0123456789";
    await seedDevToken(handle.db, token);
    await seedDevToken(handle.db, token);
    const verified = await verifyToken(handle.db, token);
    expect(verified?.owner.id).toBe("admin");
    expect(verified?.grantedRoles).toEqual(["admin"]);
    const rows = await handle.db.select().from(schema.portalApiTokens).where(eq(schema.portalApiTokens.tokenHash, hashToken(token)));
    expect(rows).toHaveLength(1);
  });
});
