/**
 * lib/db, the bottom layer both services open their database through. Its modules, one concern each:
 *   open.ts            openDatabase: PGlite or PostgreSQL (a URL), migrations at open
 *   pglite-registry.ts one PGlite per data directory per process (on globalThis)
 *   bounded-client.ts  the pg client that gives itself up; bounds on waits
 *   listen.ts          LISTEN over a connection of its own
 *   statements.ts      named statements, the caller's deadline
 *   rows.ts            rows of raw statements
 *   errors.ts          timeouts, unavailable, unique violations
 * Importers use this index; test-support/db/test-databases.ts holds the test databases.
 */
export type { AppDatabase, DatabaseHandle, MigrationSet, OpenDatabaseOptions, PoolStats } from "./types";
export type { NotificationListener, Subscription } from "./listen";
export { openDatabase } from "./open";
export { callerDeadline, callerDeadlineAt, executeNamed, executeStatement, type NamedStatement } from "./statements";
export { driverRowDecoder, fromDriverRow, rowsOf } from "./rows";
export { CallerDeadlinePassed, DatabaseTimeoutError, isDatabaseUnavailable, isUniqueViolation } from "./errors";
