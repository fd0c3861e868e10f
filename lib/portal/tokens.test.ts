import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "./db/schema";
import { testDatabaseTargets, type TestDatabase } from "@/lib/db/testing";
import { createToken, hashToken, listTokens, revokeToken, seedDevToken, verifyToken } from "./tokens";
import { openPortalTestDatabase } from "./testing";

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
