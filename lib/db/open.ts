/**
 * One factory for both services: a Drizzle database over PGlite (embedded, under a data directory
 * or in memory) or over PostgreSQL (a URL). Same schema, migrations and queries on both.
 */
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { sql } from "drizzle-orm";
import pg from "pg";
import { getBaseEnv } from "../env/parse";
import { BoundedClient, clientTelling, READ_TIMEOUT_SLACK_MS, within } from "./bounded-client";
import { listenOn, type Subscription } from "./listen";
import { forgetSharedPglite, sharedPglite } from "./pglite-registry";
import { recordCallerWait } from "./statements";
import type { AppDatabase, DatabaseHandle, OpenDatabaseOptions } from "./types";

export async function openDatabase<TSchema extends Record<string, unknown>>(
  options: OpenDatabaseOptions<TSchema>,
): Promise<DatabaseHandle<TSchema>> {
  const migrationConfig = {
    migrationsFolder: options.migrationsDir,
    migrationsTable: options.migrationsTable,
    migrationsSchema: "public",
  };
  if (options.url) {
    const env = getBaseEnv();
    const timeoutMs = options.timeoutMs ?? env.DATABASE_TIMEOUT_MS;
    const migrationTimeoutMs = options.migrationTimeoutMs ?? env.DATABASE_MIGRATION_TIMEOUT_MS;
    // statement_timeout travels in the startup message: no extra round trip per query.
    const bounds = (statementMs: number) => ({
      connectionTimeoutMillis: timeoutMs,
      statement_timeout: statementMs,
      query_timeout: statementMs + READ_TIMEOUT_SLACK_MS,
      keepAlive: true,
    });
    await migrateOnce(options.url, bounds(migrationTimeoutMs), options, migrationConfig);
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      idleTimeoutMillis: 30_000,
      ...bounds(timeoutMs),
      Client: options.onQueryError ? clientTelling(options.onQueryError) : BoundedClient,
    });
    // An idle client losing its server emits 'error' on the pool; unhandled, that would end the process.
    pool.on("error", (err) => options.onPoolError?.(err));
    pool.on("acquire", (client) => ((client as unknown as BoundedClient).leased = true));
    pool.on("release", (_err, client) => ((client as unknown as BoundedClient).leased = false));
    const db = drizzlePg(pool, { schema: options.schema });
    recordCallerWait(db, timeoutMs + READ_TIMEOUT_SLACK_MS);
    // A ping waits for a connection and then for an answer: bound the two together too.
    const pingBoundMs = timeoutMs + READ_TIMEOUT_SLACK_MS;
    const subscriptions = new Set<Subscription>();
    return {
      db: db as unknown as AppDatabase<TSchema>,
      kind: "postgres",
      ping: async () => {
        await within(pool.query("select 1"), pingBoundMs, "ping");
      },
      close: async () => {
        await Promise.all([...subscriptions].map((subscription) => subscription.close()));
        await pool.end();
      },
      listen: async (channel, listener) => {
        // Named in pg_stat_activity, so an operator (or a test) can tell the listening connection apart.
        const connect = () => new BoundedClient({ connectionString: options.url, ...bounds(timeoutMs), application_name: `listen ${channel}` });
        const notify = (to: string, payload: string) => within(pool.query("select pg_notify($1, $2)", [to, payload]), pingBoundMs, "notify");
        const subscription = listenOn(connect, notify, channel, listener, pingBoundMs);
        subscriptions.add(subscription);
        return {
          close: async () => {
            subscriptions.delete(subscription);
            await subscription.close();
          },
        };
      },
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max }),
    };
  }
  const client = options.dataDir ? await sharedPglite(options.dataDir) : await PGlite.create(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
  const db = drizzlePglite(client, { schema: options.schema });
  await migratePglite(db, migrationConfig);
  return {
    db: db as unknown as AppDatabase<TSchema>,
    kind: "pglite",
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (options.dataDir) forgetSharedPglite(options.dataDir);
      await client.close();
    },
  };
}

/**
 * Applies the migrations on a connection of its own, under an advisory lock (several instances may
 * start together), each statement and the lock wait bounded by the migration timeout.
 */
async function migrateOnce<TSchema extends Record<string, unknown>>(
  url: string,
  bounds: pg.ClientConfig,
  options: OpenDatabaseOptions<TSchema>,
  migrationConfig: { migrationsFolder: string; migrationsTable: string; migrationsSchema: string },
): Promise<void> {
  const client = new BoundedClient({ ...bounds, connectionString: url });
  // Errors of a client that is not running a query (e.g. the server goes away between statements).
  client.on("error", (err) => options.onPoolError?.(err));
  try {
    await client.connect();
    await client.query("select pg_advisory_lock(hashtext($1))", [options.migrationsTable]);
    try {
      await migratePg(drizzlePg(client, { schema: options.schema }), migrationConfig);
    } finally {
      await client.query("select pg_advisory_unlock(hashtext($1))", [options.migrationsTable]).catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}
