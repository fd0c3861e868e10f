import path from "node:path";
import { openDatabase, type AppDatabase, type DatabaseHandle, type MigrationSet } from "../../db";
import * as schema from "./schema";

import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

export { schema };
export type OffersSchema = typeof schema;
export type OffersDatabase = AppDatabase<OffersSchema>;
export type OffersDatabaseHandle = DatabaseHandle<OffersSchema>;
/** A transaction handle, usable wherever a database is. */
export type OffersTx = Parameters<Parameters<OffersDatabase["transaction"]>[0]>[0];
export type OffersExecutor = OffersDatabase | OffersTx;

export const OFFERS_MIGRATIONS_TABLE = "__offers_migrations";

/** Resolved from the working directory so the esbuild bundle finds the same folder as tsx. */
export function offersMigrationsDir(): string {
  return path.join(process.cwd(), "lib/offers/db/migrations");
}

/** The offers service's migrations (what its test databases are templated from). */
export const offersMigrations: MigrationSet = { migrationsDir: offersMigrationsDir(), migrationsTable: OFFERS_MIGRATIONS_TABLE };

export function openOffersDatabase(options: { url?: string; dataDir?: string; poolSize?: number; onPoolError?: (err: Error) => void; onQueryError?: (error: unknown) => void }): Promise<OffersDatabaseHandle> {
  return openDatabase({ ...options, schema, migrationsDir: offersMigrationsDir(), migrationsTable: OFFERS_MIGRATIONS_TABLE });
}

/**
 * `column = any($1::text[])`: a list of identifiers as one array parameter. Drizzle's inArray binds
 * one parameter per value, and building a statement costs about 10 µs per parameter in Drizzle (its
 * entity checks), more than PostgreSQL takes to run it for the lists of the hot paths (a player's
 * targeted definitions, a page of players).
 */
export function inTextList(column: AnyPgColumn, values: readonly string[]): SQL {
  return sql`${column} = any(${sql.param([...values])}::text[])`;
}
