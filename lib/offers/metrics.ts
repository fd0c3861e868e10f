/**
 * The offers service's Prometheus metrics: one registry per process. Counters are incremented
 * where things happen (claims, JWT checks, the event stream, the database client); figures that
 * are state (pool, open streams, delivery and surfacing backlogs) are read at scrape time from the
 * sources a running service registers (addMetricsSource). Label values are route patterns, codes
 * and kinds: never a player id, a game's key or a token.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { PoolStats } from "../db";
import type { DeliveryStats } from "./contract";

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequestDuration = new Histogram({
  name: "offers_http_request_duration_seconds",
  help: "Time to answer an HTTP request, by method, route pattern and status (its _count is the request rate).",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const claimsTotal = new Counter({
  name: "offers_claims_total",
  help: "Successful claims (replays of an Idempotency-Key excluded), by kind (offer, referral) and endpoint (client, sdk).",
  labelNames: ["kind", "endpoint"] as const,
  registers: [registry],
});

export const claimConflictsTotal = new Counter({
  name: "offers_claim_conflicts_total",
  help: "Claims refused with 409 offer-not-claimable (already claimed, or not claimable yet), by kind and endpoint.",
  labelNames: ["kind", "endpoint"] as const,
  registers: [registry],
});

export const jwtRejectionsTotal = new Counter({
  name: "offers_jwt_rejections_total",
  help: "Game JWTs refused, by error code (jwt-invalid, jwt-expired, unknown-gameId, …).",
  labelNames: ["code"] as const,
  registers: [registry],
});

export const sseEventsPushedTotal = new Counter({
  name: "offers_sse_events_pushed_total",
  help: "Events written to event streams, by stream (player, watcher) and event type.",
  labelNames: ["stream", "event"] as const,
  registers: [registry],
});

export const dbQueryErrorsTotal = new Counter({
  name: "offers_db_query_errors_total",
  help: "Failed PostgreSQL queries, by SQLSTATE or connection error code (23505 unique_violation is how a duplicate claim is told apart, so it is expected).",
  labelNames: ["code"] as const,
  registers: [registry],
});

/** Counts a failed query (pass as the database's onQueryError). */
export function countQueryError(error: unknown): void {
  const code = (error as { code?: unknown } | undefined)?.code;
  // SQLSTATEs are 5 characters; node's error codes are upper-case words: neither carries data.
  const label = typeof code === "string" && /^[0-9A-Z_]{1,40}$/.test(code) ? code : "other";
  dbQueryErrorsTotal.inc({ code: label });
}

export interface SurfacingBacklog {
  queued: number;
  running: number;
  /** Age in seconds of the oldest job not finished (0 when none). */
  lagSeconds: number;
  /** Players still to evaluate in running and queued jobs (as far as known). */
  playersRemaining: number;
}

/** What a running service lets the metrics read at scrape time. */
export interface MetricsSource {
  pool?: () => PoolStats | undefined;
  streams?: () => { player: number; watcher: number };
  delivery?: () => Promise<DeliveryStats>;
  surfacing?: () => Promise<SurfacingBacklog>;
}

const sources = new Set<MetricsSource>();

/** Registers a service's sources; the answer unregisters them (at stop). Several apps in one process (tests) add up. */
export function addMetricsSource(source: MetricsSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

/** Calls `read` at most once per `ms`: a scrape every few seconds must not become a query every few seconds per scraper. */
export function cachedFor<T>(ms: number, read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at > ms) {
      const value = read();
      last = { at: Date.now(), value };
      value.catch(() => {
        if (last?.value === value) last = undefined;
      });
    }
    return last.value;
  };
}

const each = <T>(pick: (s: MetricsSource) => T | undefined): T[] => [...sources].map(pick).filter((v): v is T => v !== undefined);

/** Sums a figure over the sources that answer; a source whose read fails is left out of this scrape. */
async function settledSum<T>(reads: Promise<T>[], figure: (value: T) => number): Promise<number | undefined> {
  const values = (await Promise.allSettled(reads)).flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  return values.length ? values.reduce((sum, v) => sum + figure(v), 0) : undefined;
}

new Gauge({
  name: "offers_sse_streams_open",
  help: "Event streams open on this instance, by stream (player: /v1/sse/connect; watcher: the portal's live view).",
  labelNames: ["stream"] as const,
  registers: [registry],
  collect() {
    const counts = each((s) => s.streams?.());
    this.set({ stream: "player" }, counts.reduce((sum, c) => sum + c.player, 0));
    this.set({ stream: "watcher" }, counts.reduce((sum, c) => sum + c.watcher, 0));
  },
});

const poolGauge = (name: string, help: string, figure: (p: PoolStats) => number) =>
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      const pools = each((s) => s.pool?.());
      if (pools.length) this.set(pools.reduce((sum, p) => sum + figure(p), 0));
    },
  });
poolGauge("offers_db_pool_connections_in_use", "PostgreSQL connections of the request pool running a query or a transaction.", (p) => p.total - p.idle);
poolGauge("offers_db_pool_connections_idle", "PostgreSQL connections of the request pool open and idle.", (p) => p.idle);
poolGauge("offers_db_pool_waiting", "Requests waiting for a connection of the request pool (above 0 for long: the pool or the database is too small).", (p) => p.waiting);
poolGauge("offers_db_pool_max_connections", "Size of the request pool (OFFERS_DATABASE_POOL_SIZE).", (p) => p.max);

const backlogGauge = <T>(name: string, help: string, read: (s: MetricsSource) => (() => Promise<T>) | undefined, figure: (value: T) => number) =>
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      const total = await settledSum(each((s) => read(s)?.()), figure);
      if (total !== undefined) this.set(total);
    },
  });
backlogGauge("offers_webhook_delivery_lag_seconds", "Age of the oldest reward event not yet delivered to an enabled webhook endpoint (0 when none waits).", (s) => s.delivery, (d) => d.lagSeconds);
backlogGauge("offers_webhook_deliveries_pending", "Webhook deliveries waiting for their first attempt or a retry.", (s) => s.delivery, (d) => d.pending);
backlogGauge("offers_webhook_dead_letters", "Webhook deliveries that failed every attempt (replay them from the portal).", (s) => s.delivery, (d) => d.failed);
backlogGauge("offers_surfacing_job_lag_seconds", "Age of the oldest surfacing job not finished (0 when none).", (s) => s.surfacing, (b) => b.lagSeconds);
backlogGauge("offers_surfacing_jobs_pending", "Surfacing jobs queued or running.", (s) => s.surfacing, (b) => b.queued + b.running);
backlogGauge("offers_surfacing_players_remaining", "Players still to evaluate by the pending surfacing jobs.", (s) => s.surfacing, (b) => b.playersRemaining);
