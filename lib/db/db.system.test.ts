import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import * as schema from "./fixtures/schema";
import pg from "pg";
import { createScratchPostgres, openTestDatabase, contractDatabaseTargets, type TestDatabase } from "@/test-support/db/test-databases";
import { CallerDeadlinePassed, callerDeadline, executeNamed, executeStatement, isDatabaseUnavailable, openDatabase, rowsOf } from "./index";
import { startProxyFor } from "@/test-support/tcp-proxy";
import { canRunThrowawayPgBouncer, canRunThrowawayPostgres, startThrowawayPgBouncer, startThrowawayPostgres } from "@/test-support/throwaway";

const migrationsDir = fileURLToPath(new URL("./fixtures/migrations", import.meta.url));
const options = { schema, migrationsDir, migrationsTable: "__fixture_migrations" };

describe.each(contractDatabaseTargets())("database on %s", (target) => {
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

  it("migrates an empty database at open (test databases start from a migrated template instead)", async () => {
    const scratch = target === "postgres" ? await createScratchPostgres() : undefined;
    const fresh = await openDatabase({ ...options, url: scratch?.url });
    try {
      const applied = rowsOf<{ n: number }>(await fresh.db.execute(sql`select count(*)::int as n from public.__fixture_migrations`));
      expect(applied[0]!.n).toBe(1);
      await fresh.db.insert(schema.notes).values({ body: "fresh" });
      expect((await fresh.db.select().from(schema.notes)).map((r) => r.body)).toEqual(["fresh"]);
    } finally {
      await fresh.close();
      await scratch?.drop();
    }
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

  it("runs a statement built with sql under a name: the rows execute answers, one prepared statement per shape whatever the values", async () => {
    await handle.db.insert(schema.notes).values([{ body: "named-a" }, { body: "named-b" }, { body: "named-c" }]);
    const equal = (body: string) => sql`select body from ${schema.notes} where body = ${body} order by id`;
    const other = (body: string) => sql`select body from ${schema.notes} where body like 'named-%' and body <> ${body} order by id`;
    // On PostgreSQL, one connection, so that pg_prepared_statements (per connection) shows them all.
    const single = target === "postgres" ? await openDatabase({ ...options, url: handle.url!, poolSize: 1 }) : undefined;
    onTestFinished(() => single?.close());
    const db = single?.db ?? handle.db;
    const bodies = async (query: ReturnType<typeof sql>) => rowsOf<{ body: string }>(await executeNamed(db, "test_named", query)).map((row) => row.body);
    expect(await bodies(equal("named-a"))).toEqual(rowsOf<{ body: string }>(await db.execute(equal("named-a"))).map((row) => row.body));
    expect(await bodies(equal("named-b"))).toEqual(["named-b"]);
    expect(await bodies(equal("it's; drop table notes"))).toEqual([]);
    expect(await bodies(other("named-b"))).toEqual(["named-a", "named-c"]);
    if (single) {
      const prepared = rowsOf<{ name: string; statement: string }>(await db.execute(sql`select name, statement from pg_prepared_statements where name like 'test\_named\_%'`));
      expect(prepared).toHaveLength(2);
      expect(prepared.map((row) => row.statement).sort()).toEqual([expect.stringContaining("body = $1"), expect.stringContaining("body <> $1")]);
    }
  });

  it("runs a statement fixed in the code under its own name: the rows execute answers, prepared once per connection", async () => {
    await handle.db.insert(schema.notes).values([{ body: "fixed-a" }, { body: "fixed-b" }]);
    const statement = { name: "test_fixed_bodies", text: "select body from notes where body like $1 and body <> $2 order by id" };
    const single = target === "postgres" ? await openDatabase({ ...options, url: handle.url!, poolSize: 1 }) : undefined;
    onTestFinished(() => single?.close());
    const db = single?.db ?? handle.db;
    const bodies = async (params: string[]) => rowsOf<{ body: string }>(await executeStatement(db, statement, params)).map((row) => row.body);
    expect(await bodies(["fixed-%", ""])).toEqual(["fixed-a", "fixed-b"]);
    expect(await bodies(["fixed-%", "fixed-a"])).toEqual(["fixed-b"]);
    if (single) {
      const prepared = rowsOf<{ name: string }>(await db.execute(sql`select name from pg_prepared_statements where name = 'test_fixed_bodies'`));
      expect(prepared).toHaveLength(1);
    }
  });

  it("dates a statement's caller deadline the database timeout plus its slack ahead on PostgreSQL, and never on PGlite", async () => {
    const bounded = target === "postgres" ? await openDatabase({ ...options, url: handle.url!, timeoutMs: 2_000 }) : undefined;
    onTestFinished(() => bounded?.close());
    const db = bounded?.db ?? handle.db;
    const [row] = rowsOf<{ ahead_ms: number | string; passed: boolean }>(
      await db.execute(sql`select extract(epoch from (${callerDeadline(db)} - clock_timestamp())) * 1000 as ahead_ms, clock_timestamp() >= ${callerDeadline(db)} as passed`),
    );
    expect(row!.passed).toBe(false);
    if (target === "postgres") expect(Math.abs(Number(row!.ahead_ms) - 3_000)).toBeLessThan(1_000);
    else expect(Number(row!.ahead_ms)).toBe(Infinity);
  });
});

describe("CallerDeadlinePassed", () => {
  it("counts as the database being unavailable", () => {
    expect(isDatabaseUnavailable(new CallerDeadlinePassed("claim of i-1"))).toBe(true);
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

describe.skipIf(!process.env.TEST_DATABASE_URL)("LISTEN on PostgreSQL", () => {
  it("hears what is notified; deaf while its connection is cut, it listens again by itself and hears what comes next", async () => {
    const scratch = await createScratchPostgres();
    const { proxy, url: viaProxy } = await startProxyFor(scratch.url, 5432);
    const handle = await openDatabase({ ...options, url: viaProxy, timeoutMs: 1_000, onPoolError: () => {} });
    const direct = new pg.Client({ connectionString: scratch.url });
    await direct.connect();
    const heard: string[] = [];
    const states: string[] = [];
    try {
      await handle.listen!("fixture_channel", {
        onNotification: (payload) => heard.push(payload),
        onListening: () => states.push("listening"),
        onDeaf: () => states.push("deaf"),
      });
      await expect.poll(() => states).toEqual(["listening"]);
      await direct.query("select pg_notify('fixture_channel', 'first'), pg_notify('other_channel', 'not ours')");
      await direct.query("begin; select pg_notify('fixture_channel', 'rolled back'); rollback");
      await expect.poll(() => heard).toEqual(["first"]);

      await proxy.cut();
      await expect.poll(() => states).toEqual(["listening", "deaf"]);
      await direct.query("select pg_notify('fixture_channel', 'while deaf')");
      await proxy.restore();
      await expect.poll(() => states, { timeout: 10_000 }).toEqual(["listening", "deaf", "listening"]);
      await direct.query("select pg_notify('fixture_channel', 'second')");
      await expect.poll(() => heard).toEqual(["first", "second"]);

      // Closed with the handle: nothing listens on the database any more.
      const listening = () => direct.query("select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name like 'listen %'").then((r) => r.rows[0].n as number);
      expect(await listening()).toBe(1);
      await handle.close();
      await expect.poll(listening).toBe(0);
    } finally {
      await direct.end();
      await handle.close().catch(() => {});
      await proxy.close();
      await scratch.drop();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL || !canRunThrowawayPgBouncer())("LISTEN behind PgBouncer in transaction mode", () => {
  it("is accepted but nothing comes back: the listener is told it is deaf and why, never that it listens", async () => {
    const scratch = await createScratchPostgres();
    const bouncer = await startThrowawayPgBouncer(process.env.TEST_DATABASE_URL!);
    const handle = await openDatabase({ ...options, url: bouncer.url(new URL(scratch.url).pathname.slice(1)), timeoutMs: 1_000, onPoolError: () => {} });
    const states: string[] = [];
    try {
      await handle.ping();
      await handle.listen!("fixture_channel", {
        onNotification: () => states.push("notification"),
        onListening: () => states.push("listening"),
        onDeaf: (reason) => states.push(`deaf: ${reason}`),
      });
      await expect.poll(() => states, { timeout: 10_000 }).toEqual([expect.stringMatching(/^deaf: no notification came back within \d+ ms on fixture_channel$/)]);
      // It keeps trying (a pooler may be replaced by a direct connection), and stays deaf meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(states).toHaveLength(1);
    } finally {
      await handle.close();
      await bouncer.destroy();
      await scratch.drop();
    }
  });
});

describe.skipIf(!canRunThrowawayPostgres())("PostgreSQL frozen (SIGSTOP of every process)", () => {
  const timeoutMs = 1_000;
  // The client waits 1 s longer than the server's statement_timeout; the rest is slack for a busy machine.
  const boundMs = timeoutMs + 1_000 + 3_000;
  const failure = (work: Promise<unknown>) => work.then(() => undefined, (e: unknown) => e);

  it("every query, transaction, ping and open fails within the bound as unavailable; the pool recovers on thaw and loses nothing", async () => {
    const server = await startThrowawayPostgres();
    // Also when the test fails or times out: a frozen server would outlive the run.
    onTestFinished(async () => {
      server.thaw();
      await server.destroy();
    });
    const handle = await openDatabase({ ...options, url: server.url, poolSize: 4, timeoutMs, onPoolError: () => {} });
    try {
      // Four idle connections in the pool, so queries reach frozen backends, not only a frozen postmaster.
      await Promise.all([1, 2, 3, 4].map((i) => handle.db.execute(sql`select pg_sleep(0.05), ${i}::int`)));
      server.freeze();

      const started = Date.now();
      const transaction = () =>
        handle.db.transaction(async (tx) => {
          await tx.insert(schema.notes).values({ body: "written while frozen" });
        });
      const outcomes = await Promise.all(
        [
          transaction(),
          transaction(),
          transaction(),
          handle.db.select().from(schema.notes),
          // The pool is busy: these wait for a connection.
          handle.ping(),
          handle.db.insert(schema.notes).values({ body: "also while frozen" }),
          openDatabase({ ...options, url: server.url, timeoutMs, onPoolError: () => {} }),
        ].map(failure),
      );
      const elapsed = Date.now() - started;
      for (const outcome of outcomes) {
        expect(outcome).toBeInstanceOf(Error);
        expect(isDatabaseUnavailable(outcome), String(outcome)).toBe(true);
      }
      expect(elapsed).toBeLessThan(boundMs);
      // Still frozen: the next request is bounded too (a new connection that gets no answer).
      const again = Date.now();
      expect(isDatabaseUnavailable(await failure(handle.db.select().from(schema.notes)))).toBe(true);
      expect(Date.now() - again).toBeLessThan(boundMs);

      server.thaw();
      let recovered = false;
      for (let attempt = 0; attempt < 30 && !recovered; attempt++) {
        recovered = (await failure(handle.db.select().from(schema.notes))) === undefined;
        if (!recovered) await new Promise((r) => setTimeout(r, 100));
      }
      expect(recovered).toBe(true);
      // Every pool slot works again (none is held by a connection lost in the freeze), and every write is
      // committed (no connection came back inside a transaction left open by the freeze).
      await Promise.all(Array.from({ length: 8 }, (_, i) => handle.db.transaction(async (tx) => {
        await tx.insert(schema.notes).values({ body: `after ${i}` });
        await tx.execute(sql`select pg_sleep(0.2)`);
      })));
      const reader = new pg.Client({ connectionString: server.url });
      await reader.connect();
      try {
        const { rows } = await reader.query<{ body: string }>("select body from notes order by body");
        expect(rows.map((r) => r.body)).toEqual(Array.from({ length: 8 }, (_, i) => `after ${i}`));
      } finally {
        await reader.end();
      }
    } finally {
      server.thaw();
      await Promise.race([handle.close().catch(() => {}), new Promise((r) => setTimeout(r, 5_000))]);
    }
  }, 60_000);
});

describe("isDatabaseUnavailable", () => {
  it("tells connection failures from query errors, through causes", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("wrapped", { cause: Object.assign(new Error("y"), { code: "57P01" }) }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("syntax"), { code: "42601" }))).toBe(false);
    // Timeouts: the server's statement_timeout, the client's read timeout, a wait for a pool connection.
    expect(isDatabaseUnavailable(Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: new Error("Query read timeout") }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
