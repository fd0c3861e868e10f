import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import * as schema from "./fixtures/schema";
import { createScratchPostgres, openTestDatabase, testDatabaseTargets, type TestDatabase } from "./testing";
import { isDatabaseUnavailable, openDatabase } from "./index";
import { startProxyFor } from "../testing/tcp-proxy";

const migrationsDir = fileURLToPath(new URL("./fixtures/migrations", import.meta.url));
const options = { schema, migrationsDir, migrationsTable: "__fixture_migrations" };

describe.each(testDatabaseTargets())("database on %s", (target) => {
  let handle: TestDatabase<typeof schema>;
  beforeAll(async () => {
    handle = await openTestDatabase(target, options);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("applies migrations and runs queries", async () => {
    await handle.db.insert(schema.notes).values({ body: "hello" });
    const rows = await handle.db.select().from(schema.notes);
    expect(rows.map((r) => r.body)).toEqual(["hello"]);
    await expect(handle.ping()).resolves.toBeUndefined();
  });

  it("keeps each test database apart", async () => {
    const other = await openTestDatabase(target, options);
    try {
      expect(await other.db.select().from(schema.notes)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("reapplying migrations is a no-op", async () => {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    if (target === "pglite") {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      await migrate(handle.db as any, { migrationsFolder: migrationsDir, migrationsTable: "__fixture_migrations", migrationsSchema: "public" });
    }
    const result = (await handle.db.execute(sql`select count(*)::int as n from public.__fixture_migrations`)) as unknown as { rows: Array<{ n: number }> };
    expect(result.rows[0]!.n).toBe(1);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("PostgreSQL going away", () => {
  it("reports unavailability, then recovers by itself", async () => {
    const scratch = await createScratchPostgres();
    const { proxy, url: viaProxy } = await startProxyFor(scratch.url, 5432);
    const handle = await openDatabase({ ...options, url: viaProxy, onPoolError: () => {} });
    try {
      await handle.ping();
      await proxy.cut();
      const failure = await handle.ping().then(() => undefined, (e: unknown) => e);
      expect(failure).toBeDefined();
      expect(isDatabaseUnavailable(failure)).toBe(true);
      await proxy.restore();
      await expect(handle.ping()).resolves.toBeUndefined();
    } finally {
      await handle.close();
      await proxy.close();
      await scratch.drop();
    }
  });
});

describe("isDatabaseUnavailable", () => {
  it("tells connection failures from query errors, through causes", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("wrapped", { cause: Object.assign(new Error("y"), { code: "57P01" }) }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("syntax"), { code: "42601" }))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
