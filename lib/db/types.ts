/** The shapes lib/db answers and takes: a database, its handle, the options of opening one. */
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { NotificationListener, Subscription } from "./listen";

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

export interface PoolStats {
  /** Connections open (busy and idle). */
  total: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
  max: number;
}

/** A folder of drizzle-kit migrations and the table that records them (a test database's template is built from it). */
export interface MigrationSet {
  migrationsDir: string;
  migrationsTable: string;
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
