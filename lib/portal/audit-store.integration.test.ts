import { describe, expect, it } from "vitest";
import { contractDatabaseTargets } from "@/test-support/db/test-databases";
import { changedFields, compact, listAudit, requestIdOf, writeAudit } from "./audit-store";
import { openPortalTestDatabase } from "@/test-support/portal/test-portal";

describe("audit helpers", () => {
  it("takes the request id from x-request-id when it is sane, else makes one", () => {
    expect(requestIdOf(new Request("http://x/", { headers: { "x-request-id": "abc-123" } }))).toBe("abc-123");
    expect(requestIdOf(new Request("http://x/", { headers: { "x-request-id": "has space" } }))).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(new Request("http://x/", { headers: { "x-request-id": "x".repeat(200) } }))).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(new Request("http://x/"))).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("summarises only what changed, by dotted path", () => {
    const d = changedFields({ a: 1, b: { c: "x", d: [1, 2] }, gone: true }, { a: 1, b: { c: "y", d: [1, 2] }, added: "new" });
    expect(d.fields).toEqual(["added", "b.c", "gone"]);
    expect(d.before).toEqual({ "b.c": "x", gone: true });
    expect(d.after).toEqual({ added: "new", "b.c": "y" });
  });

  it("cuts long values", () => {
    expect((compact("x".repeat(500)) as string).length).toBe(201);
    expect(compact({ a: { b: { c: { d: { e: 1 } } } } })).toEqual({ a: { b: { c: { d: "{…}" } } } });
  });
});

describe.each(contractDatabaseTargets())("audit log on %s", (target) => {
  it("writes entries and lists them newest first with filters and paging", async () => {
    const db = await openPortalTestDatabase(target);
    try {
      const actor = { id: "ann", name: "Ann" };
      for (let i = 0; i < 5; i++) {
        await writeAudit(db.db, { actor, action: i % 2 ? "favorite.add" : "order.create", targetType: "component", target: `c${i}`, component: `c${i}`, summary: `s${i}`, requestId: `r${i}` });
      }
      const all = await listAudit(db.db, {});
      expect(all.entries.map((e) => e.target)).toEqual(["c4", "c3", "c2", "c1", "c0"]);
      expect((await listAudit(db.db, { action: "order" })).entries).toHaveLength(3);
      expect((await listAudit(db.db, { action: "favorite.add,order.create" })).entries).toHaveLength(5);
      expect((await listAudit(db.db, { action: "nothing" })).entries).toHaveLength(0);
      expect((await listAudit(db.db, { requestId: "r2" })).entries.map((e) => e.target)).toEqual(["c2"]);
      const p1 = await listAudit(db.db, { limit: 2 });
      const p2 = await listAudit(db.db, { limit: 2, before: p1.nextBefore ?? 0 });
      const p3 = await listAudit(db.db, { limit: 2, before: p2.nextBefore ?? 0 });
      expect([...p1.entries, ...p2.entries, ...p3.entries].map((e) => e.target)).toEqual(["c4", "c3", "c2", "c1", "c0"]);
      expect(p3.nextBefore).toBeNull();
    } finally {
      await db.close();
    }
  });
});
