/**
 * Statements run by name (parsed and planned once per connection on PostgreSQL) and the caller's
 * deadline a write carries so that it never commits after its caller gave up.
 */
import { PgDialect } from "drizzle-orm/pg-core";
import { sql, type SQL } from "drizzle-orm";
import { createHash } from "node:crypto";
import type { AppDatabase } from "./types";

/** How long the caller of a statement waits for its answer, per PostgreSQL database (see callerDeadline). */
const callerWaitsMs = new WeakMap<object, number>();

/** Records how long callers of `db` wait for an answer (set when a PostgreSQL database is opened). */
export function recordCallerWait(db: object, ms: number): void {
  callerWaitsMs.set(db, ms);
}

/**
 * When the caller of a statement sent now stops waiting for its answer, as the text of a
 * `timestamptz` (an ISO instant, or "infinity" on PGlite), for a statement that takes it as a
 * parameter; see callerDeadline.
 */
export function callerDeadlineAt(db: AppDatabase): string {
  const ms = callerWaitsMs.get(db);
  return ms === undefined ? "infinity" : new Date(Date.now() + ms).toISOString();
}

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
  return sql`${callerDeadlineAt(db)}::timestamptz`;
}

/** A statement whose text is fixed in the code, with `$1`, `$2`, … for its values: run by name. */
export interface NamedStatement {
  /** Unique per text in the process: a connection refuses one name for two texts. */
  name: string;
  text: string;
}

/**
 * Runs `statement` with `params` as a named statement on PostgreSQL: each pooled connection parses
 * and plans it once and then only binds values. PGlite runs it unnamed. Answers what `execute`
 * answers (`rowsOf`).
 */
export function executeStatement(db: AppDatabase, statement: NamedStatement, params: unknown[]): Promise<unknown> {
  return db._.session.prepareQuery({ sql: statement.text, params }, undefined, statement.name, false).execute();
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
  return executeStatement(db, { name, text: built.sql }, built.params);
}
