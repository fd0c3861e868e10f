/**
 * One factory for both services: a Drizzle database over PGlite (embedded, under a data directory
 * or in memory) or over PostgreSQL (a URL). Same schema, migrations and queries on both.
 *
 * The one process-wide registry here (globalThis.__pgliteInstances) stays on purpose: PGlite allows
 * one instance per data directory per process (a second one on the same files corrupts them), and
 * Next's dev server reloads modules, so the registry must outlive a module instance. It holds no
 * service: which database a service uses is decided by its own wiring (e.g. lib/portal/services.ts).
 */
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { PgDialect, type PgDatabase, type PgQueryResultHKT, type PgTable } from "drizzle-orm/pg-core";
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import pg from "pg";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { getEnv } from "../env";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AppDatabase<TSchema extends Record<string, unknown> = Record<string, any>> = PgDatabase<PgQueryResultHKT, TSchema>;

export interface DatabaseHandle<TSchema extends Record<string, unknown>> {
  db: AppDatabase<TSchema>;
  kind: "pglite" | "postgres";
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL only: the pool's connections right now (read by the metrics at scrape time). */
  poolStats?(): PoolStats;
  /**
   * PostgreSQL only: LISTEN on `channel` over a connection of its own (not the pool's), opened again
   * after it is lost; closing the handle ends it. What is notified while it is not listening is lost,
   * which the listener is told (onDeaf, then onListening once it listens again).
   */
  listen?(channel: string, listener: NotificationListener): Promise<Subscription>;
}

export interface NotificationListener {
  onNotification(payload: string): void;
  /** Listening from now on (at first, and again after a loss): what was notified meanwhile is not heard. */
  onListening(): void;
  /**
   * Not listening (any more): the connection was lost, or notifications do not come back on it. Told
   * once per loss, and once when a connection that answers hears nothing, until the next onListening.
   */
  onDeaf(reason: string): void;
}

export interface Subscription {
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections open (busy and idle). */
  total: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
  max: number;
}

export interface OpenDatabaseOptions<TSchema extends Record<string, unknown>> {
  /** postgres:// URL; when absent, PGlite is used. */
  url?: string;
  /** PGlite data directory; absent = in memory. */
  dataDir?: string;
  /** PGlite in memory: start from this dump of a data directory (`dumpDataDir()`), e.g. a migrated test template. */
  loadDataDir?: Blob;
  schema: TSchema;
  /** Folder of drizzle-kit migrations, applied at open. */
  migrationsDir: string;
  /** Per-service migrations table, so two services may share one PostgreSQL database. */
  migrationsTable: string;
  /** PostgreSQL pool size. */
  poolSize?: number;
  /**
   * PostgreSQL only: the bound of every statement (server side), of a wait for a connection, and,
   * with a little slack, of every answer (client side, for a server that stopped answering at all).
   * Default DATABASE_TIMEOUT_MS.
   */
  timeoutMs?: number;
  /** PostgreSQL only: the bound of the migrations at open, lock wait included. Default DATABASE_MIGRATION_TIMEOUT_MS. */
  migrationTimeoutMs?: number;
  onPoolError?: (err: Error) => void;
  /** PostgreSQL only: told of every failed query (e.g. counted by the metrics). */
  onQueryError?: (error: unknown) => void;
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

/**
 * How much longer than the server's statement_timeout the client waits for an answer. A slow query
 * on a live server is cancelled by the server first (the connection stays usable); only a server
 * that answers nothing at all (frozen, network gone) reaches the client's own timeout.
 */
const READ_TIMEOUT_SLACK_MS = 1_000;
const READ_TIMEOUT_MESSAGE = "Query read timeout";

/** Raised when the database did not answer within its bound; isDatabaseUnavailable() says true. */
export class DatabaseTimeoutError extends Error {
  readonly code = "DATABASE_TIMEOUT";
  constructor(what: string, ms: number) {
    super(`${what}: no answer from the database within ${ms} ms`);
    this.name = "DatabaseTimeoutError";
  }
}

/**
 * Raised when a statement guarded by callerDeadline ran after it and so changed nothing;
 * isDatabaseUnavailable() says true (the caller had stopped waiting, or the clocks disagree).
 */
export class CallerDeadlinePassed extends Error {
  readonly code = "DATABASE_TIMEOUT";
  constructor(what: string) {
    super(`${what}: reached the database after its caller stopped waiting (or PostgreSQL's clock is ahead of this host's); nothing changed`);
    this.name = "CallerDeadlinePassed";
  }
}

/**
 * A pg client that gives itself up when its connection can no longer be trusted: an answer that timed
 * out (pg's query_timeout only fails the caller; the query stays active on the connection, so later
 * queries would queue behind a request the server may answer much later, or run inside a transaction
 * whose rollback never ran), or a connection that failed.
 *
 * Checked out of a pool, it is handed back with the error, so the pool ends and forgets it; whatever
 * its holder does later is harmless. That matters for drizzle's transactions: when `begin` fails they
 * never release their client, and each one would keep a pool slot forever.
 */
class BoundedClient extends pg.Client {
  /** Between the pool's 'acquire' and 'release' of this client. */
  leased = false;
  /** Told of every failed query (set by the pool's Client subclass). */
  onQueryError?: (error: unknown) => void;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // A checked-out client has no other 'error' listener: a lost connection must not end the process.
    // Its queries fail with the error anyway.
    this.on("error", () => {});
  }

  private giveUp(error: unknown): void {
    this.onQueryError?.(error);
    const state = this as unknown as { _queryable: boolean; _ending: boolean; release?: (err?: Error) => void };
    const timedOut = error instanceof Error && error.message === READ_TIMEOUT_MESSAGE;
    if (!timedOut && state._queryable && !state._ending) return; // a query error: the connection is fine
    const release = state.release;
    if (this.leased && typeof release === "function") {
      state.release = () => {};
      release(error instanceof Error ? error : new Error(String(error)));
    } else {
      void this.end().catch(() => {});
    }
  }

  // pg's query() has many overloads (callback, promise, submittable); this passes each through.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const [config, values, callback] = args;
    const watch =
      (done: (err: unknown, res?: unknown) => void) =>
      (err: unknown, res?: unknown): void => {
        if (err) this.giveUp(err);
        done(err, res);
      };
    if (config && typeof config.submit === "function") return super.query(config, values, callback);
    if (typeof values === "function") return super.query(config, watch(values));
    if (typeof callback === "function") return super.query(config, values, watch(callback));
    if (config && typeof config === "object" && typeof config.callback === "function") {
      return super.query({ ...config, callback: watch(config.callback) }, values);
    }
    return (super.query(config, values) as Promise<unknown>).catch((error: unknown) => {
      this.giveUp(error);
      throw error;
    });
  }
}

/** A BoundedClient class whose clients tell `onQueryError` of each failed query. */
function clientTelling(onQueryError: (error: unknown) => void): typeof BoundedClient {
  return class extends BoundedClient {
    override onQueryError = onQueryError;
  };
}

/** Rejects with a DatabaseTimeoutError when `work` takes longer than `ms` (the work itself is bounded too; this bounds the sum of its waits). */
function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseTimeoutError(what, ms)), ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
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
    const env = getEnv();
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
    callerWaitsMs.set(db, timeoutMs + READ_TIMEOUT_SLACK_MS);
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
      if (options.dataDir) globalForPglite.__pgliteInstances?.delete(path.resolve(options.dataDir));
      await client.close();
    },
  };
}

/** How often a listening connection proves it still hears: a server gone silent shows within this plus the probe's bound. */
const LISTEN_PROBE_EVERY_MS = 10_000;
const LISTEN_RETRY_MIN_MS = 250;
const LISTEN_RETRY_MAX_MS = 5_000;

/**
 * LISTEN on a client of its own. Listening counts only once a notification sent from another
 * connection (`notify`, the pool's) on a channel of this subscription's own arrives while the client is
 * idle, as real ones do: a pooler in transaction mode accepts LISTEN but delivers nothing to an idle
 * client. The probe repeats every LISTEN_PROBE_EVERY_MS. A lost connection (error, end, or a probe not
 * heard within `probeMs`) makes the listener deaf and is replaced, with a backoff.
 */
function listenOn(
  connect: () => pg.Client,
  notify: (channel: string, payload: string) => Promise<unknown>,
  channel: string,
  listener: NotificationListener,
  probeMs: number,
): Subscription {
  const probeChannel = `${channel}_probe_${randomBytes(6).toString("hex")}`;
  let closed = false;
  let current: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  let probing: NodeJS.Timeout | undefined;
  let failures = 0;
  const waiting = new Map<string, (heard: boolean) => void>();

  const scheduleOpen = () => {
    if (closed) return;
    const delay = Math.min(LISTEN_RETRY_MAX_MS, LISTEN_RETRY_MIN_MS * 2 ** failures++);
    retry = setTimeout(() => void open(), delay);
    retry.unref();
  };
  const lost = (client: pg.Client, reason: string) => {
    client.removeAllListeners("notification");
    void client.end().catch(() => {});
    if (current !== client) return;
    current = null;
    clearInterval(probing);
    listener.onDeaf(reason);
    scheduleOpen();
  };
  /** True when a notification sent now from another connection reaches this client within probeMs. */
  const probe = () =>
    new Promise<boolean>((resolve) => {
      const nonce = randomBytes(8).toString("hex");
      const timer = setTimeout(() => settle(false), probeMs);
      const settle = (heard: boolean) => {
        clearTimeout(timer);
        waiting.delete(nonce);
        resolve(heard);
      };
      waiting.set(nonce, settle);
      notify(probeChannel, nonce).catch(() => settle(false));
    });
  const open = async () => {
    const client = connect();
    client.on("error", () => lost(client, "connection error"));
    client.on("end", () => lost(client, "connection ended"));
    client.on("notification", (message) => {
      if (message.channel === probeChannel) waiting.get(message.payload ?? "")?.(true);
      else if (current === client && message.channel === channel && message.payload !== undefined) listener.onNotification(message.payload);
    });
    let heard = false;
    let reason = `no notification came back within ${probeMs} ms on ${channel}`;
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
      await client.query(`LISTEN ${client.escapeIdentifier(probeChannel)}`);
      heard = await probe();
    } catch (error) {
      reason = `could not listen on ${channel}: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (!heard || closed) {
      client.removeAllListeners("end");
      void client.end().catch(() => {});
      // Connected but deaf: said once per run of failures (e.g. behind a pooler in transaction mode).
      if (!heard && !closed && failures === 0) listener.onDeaf(reason);
      scheduleOpen();
      return;
    }
    current = client;
    failures = 0;
    listener.onListening();
    probing = setInterval(() => {
      void probe().then((ok) => {
        if (!ok) lost(client, `no notification came back within ${probeMs} ms`);
      });
    }, LISTEN_PROBE_EVERY_MS);
    probing.unref();
  };
  void open();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      clearInterval(probing);
      const client = current;
      current = null;
      await client?.end().catch(() => {});
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

/** How long the caller of a statement waits for its answer, per PostgreSQL database (see callerDeadline). */
const callerWaitsMs = new WeakMap<object, number>();

/**
 * When the caller of a statement sent now stops waiting for its answer, as a `timestamptz` value
 * for a write that must not commit after the caller answered that the database is unavailable. A
 * frozen or cut-off PostgreSQL runs what its socket already holds when it wakes, long after the
 * client gave up and closed the connection; a statement that compares `clock_timestamp()` with
 * this, once its locks are taken, then changes nothing. The caller waits at least this long (its
 * wait starts once a pooled connection is taken), so a statement that runs after the caller gave up
 * is always refused; this host's clock and PostgreSQL's must agree to within the wait's slack.
 * On PGlite (in process, nothing to wait for) it is infinity.
 */
export function callerDeadline(db: AppDatabase): SQL {
  const ms = callerWaitsMs.get(db);
  return sql`${ms === undefined ? "infinity" : new Date(Date.now() + ms).toISOString()}::timestamptz`;
}

const dialect = new PgDialect();
/** Statement names by SQL text; a statement's text depends on its shape only (values are parameters), so this stays small. */
const statementNames = new Map<string, string>();
const MAX_STATEMENT_NAMES = 1_000;

/**
 * `db.execute(query)`, as a named statement on PostgreSQL: each pooled connection parses and plans
 * it once and then only binds values, where an unnamed statement is parsed and planned on every
 * call (for a statement of many CTEs, most of its cost). The name is `prefix` and a hash of the
 * text, so each shape of a statement built with `sql` gets its own. PGlite runs it as before.
 * Answers what `execute` answers (`rowsOf`).
 */
export function executeNamed(db: AppDatabase, prefix: string, query: SQL): Promise<unknown> {
  const built = dialect.sqlToQuery(query);
  let name = statementNames.get(built.sql);
  if (!name) {
    name = `${prefix}_${createHash("sha256").update(built.sql).digest("hex").slice(0, 16)}`;
    if (statementNames.size < MAX_STATEMENT_NAMES) statementNames.set(built.sql, name);
  }
  return db._.session.prepareQuery(built, undefined, name, false).execute();
}

/** The rows of a raw `execute(sql…)`: both drivers answer an object with `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * Decodes rows of `table` from their database form (keys are column names; values as the driver
 * or PostgreSQL's JSON gives them, e.g. a `to_jsonb`, `row_to_json` or `json_agg` of rows): each
 * column maps its value as Drizzle's own queries do. Built once per table, for hot paths.
 */
export function driverRowDecoder<T extends PgTable>(table: T): (raw: Record<string, unknown>) => T["$inferSelect"] {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => [key, column.name, column] as const);
  return (raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, name, column] of columns) {
      const value = raw[name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as T["$inferSelect"];
  };
}

const decoders = new WeakMap<PgTable, (raw: Record<string, unknown>) => unknown>();

/** One table row from its database form (`driverRowDecoder`, kept per table). */
export function fromDriverRow<T extends PgTable>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  let decode = decoders.get(table);
  if (!decode) decoders.set(table, (decode = driverRowDecoder(table)));
  return decode(raw) as T["$inferSelect"];
}

/** True when an error (or its cause) is PostgreSQL's unique_violation (23505). */
export function isUniqueViolation(error: unknown): boolean {
  const err = error as { code?: string; cause?: { code?: string }; message?: string };
  return err?.code === "23505" || err?.cause?.code === "23505" || /duplicate key|unique constraint/i.test(String(err?.message ?? ""));
}

const unavailableCodes = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND",
  "DATABASE_TIMEOUT",
  // admin_shutdown, crash_shutdown, cannot_connect_now; connection exceptions
  "57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006",
  // query_canceled: the statement_timeout fired (the server is alive but did not finish in time)
  "57014",
  // too_many_connections
  "53300",
]);

const unavailableMessages =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|connect ECONNREFUSED|Query read timeout|^timeout expired$/i;

/**
 * True when an error (or one of its causes) means the database is out of reach or did not answer in
 * time, not that the query is wrong. Both services answer these with 503 database-unavailable.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === "string" && unavailableCodes.has(e.code)) return true;
    if (typeof e.message === "string" && unavailableMessages.test(e.message)) return true;
    current = e.cause;
  }
  return false;
}
