/** The bounds of every wait on PostgreSQL: the client that gives itself up, and a bound on a sum of waits. */
import pg from "pg";
import { DatabaseTimeoutError } from "./errors";

/**
 * How much longer than the server's statement_timeout the client waits for an answer. A slow query
 * on a live server is cancelled by the server first (the connection stays usable); only a server
 * that answers nothing at all (frozen, network gone) reaches the client's own timeout.
 */
export const READ_TIMEOUT_SLACK_MS = 1_000;
const READ_TIMEOUT_MESSAGE = "Query read timeout";

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
export class BoundedClient extends pg.Client {
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
export function clientTelling(onQueryError: (error: unknown) => void): typeof BoundedClient {
  return class extends BoundedClient {
    override onQueryError = onQueryError;
  };
}

/** Rejects with a DatabaseTimeoutError when `work` takes longer than `ms` (the work itself is bounded too; this bounds the sum of its waits). */
export function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseTimeoutError(what, ms)), ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
