/** The database's errors, and how an error from either driver is told apart: unavailable, or a unique violation. */

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
