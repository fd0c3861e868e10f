/** Small helpers shared by the benchmarks. */
import { createScratchPostgres } from "../../lib/db/testing";

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Polls a URL until it answers 2xx. */
export async function waitForHealthy(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export const verdict = (ok: boolean) => (ok ? "ok" : "MISSED");

/**
 * An empty database of its own for one bench run, on the BENCH_DATABASE_URL server (default the local
 * one), named `<prefix>_…`; drop it at the end.
 */
export function createBenchDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  return createScratchPostgres({ serverUrl: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test", prefix });
}
