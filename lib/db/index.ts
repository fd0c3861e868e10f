/**
 * One factory for both services: a Drizzle database over PGlite (embedded, under a data directory
 * or in memory) or over PostgreSQL (a URL). Same schema, migrations and queries on both.
 */
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTable } from "drizzle-orm/pg-core";
import { getTableColumns, sql } from "drizzle-orm";
import pg from "pg";
import { mkdirSync } from "node:fs";
import path from "node:path";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AppDatabase<TSchema extends Record<string, unknown> = Record<string, any>> = PgDatabase<PgQueryResultHKT, TSchema>;

export interface DatabaseHandle<TSchema extends Record<string, unknown>> {
  db: AppDatabase<TSchema>;
  kind: "pglite" | "postgres";
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions<TSchema extends Record<string, unknown>> {
  /** postgres:// URL; when absent, PGlite is used. */
  url?: string;
  /** PGlite data directory; absent = in memory. */
  dataDir?: string;
  schema: TSchema;
  /** Folder of drizzle-kit migrations, applied at open. */
  migrationsDir: string;
  /** Per-service migrations table, so two services may share one PostgreSQL database. */
  migrationsTable: string;
  /** PostgreSQL pool size. */
  poolSize?: number;
  onPoolError?: (err: Error) => void;
}

type PgliteRegistry = Map<string, Promise<PGlite>>;
const globalForPglite = globalThis as unknown as { __pgliteInstances?: PgliteRegistry };

/** One PGlite per data directory per process: dev reloads must not open a second one on the same files. */
function sharedPglite(dataDir: string): Promise<PGlite> {
  const registry = (globalForPglite.__pgliteInstances ??= new Map());
  const key = path.resolve(dataDir);
  let instance = registry.get(key);
  if (!instance) {
    mkdirSync(key, { recursive: true });
    instance = PGlite.create(key);
    registry.set(key, instance);
  }
  return instance;
}

export async function openDatabase<TSchema extends Record<string, unknown>>(
  options: OpenDatabaseOptions<TSchema>,
): Promise<DatabaseHandle<TSchema>> {
  const migrationConfig = {
    migrationsFolder: options.migrationsDir,
    migrationsTable: options.migrationsTable,
    migrationsSchema: "public",
  };
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle client losing its server emits 'error' on the pool; unhandled, that would end the process.
    pool.on("error", (err) => options.onPoolError?.(err));
    const db = drizzlePg(pool, { schema: options.schema });
    // Several instances may start together: serialise migrations with an advisory lock.
    const client = await pool.connect();
    try {
      await client.query("select pg_advisory_lock(hashtext($1))", [options.migrationsTable]);
      await migratePg(drizzlePg(client, { schema: options.schema }), migrationConfig);
    } finally {
      await client.query("select pg_advisory_unlock(hashtext($1))", [options.migrationsTable]).catch(() => {});
      client.release();
    }
    return {
      db: db as unknown as AppDatabase<TSchema>,
      kind: "postgres",
      ping: async () => {
        await pool.query("select 1");
      },
      close: () => pool.end(),
    };
  }
  const client = options.dataDir ? await sharedPglite(options.dataDir) : await PGlite.create();
  const db = drizzlePglite(client, { schema: options.schema });
  await migratePglite(db, migrationConfig);
  return {
    db: db as unknown as AppDatabase<TSchema>,
    kind: "pglite",
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (options.dataDir) globalForPglite.__pgliteInstances?.delete(path.resolve(options.dataDir));
      await client.close();
    },
  };
}

/** The rows of a raw `execute(sql…)`: both drivers answer an object with `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * A table row from its database form (column names, driver or JSON values), e.g. the `to_jsonb`
 * of a row returned by a raw statement: each column maps its value as Drizzle's own queries do.
 */
export function fromDriverRow<T extends PgTable>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T["$inferSelect"];
}

/** True when an error (or its cause) is PostgreSQL's unique_violation (23505). */
export function isUniqueViolation(error: unknown): boolean {
  const err = error as { code?: string; cause?: { code?: string }; message?: string };
  return err?.code === "23505" || err?.cause?.code === "23505" || /duplicate key|unique constraint/i.test(String(err?.message ?? ""));
}

const unavailableCodes = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND",
  "57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006",
]);

/** True when an error (or one of its causes) means the database is out of reach, not that the query is wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === "string" && unavailableCodes.has(e.code)) return true;
    if (typeof e.message === "string" && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED/i.test(e.message)) {
      return true;
    }
    current = e.cause;
  }
  return false;
}
