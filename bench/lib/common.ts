/** Small helpers shared by the benchmarks. */
import { execSync, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createScratchPostgres } from "../../test-support/db/test-databases";

const CLOCK_TICKS = Number(execSync("getconf CLK_TCK").toString().trim()) || 100;

/**
 * CPU time (user + system) a process has used, in ms, from /proc: per request it does not depend on
 * what else the machine runs, as requests per second do. Counted in clock ticks (10 ms each).
 */
export function processCpuMs(pid: number | undefined): number {
  // The fields after the command name, which is in parentheses and may hold spaces.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/**
 * CPU ms of each postgres process on the machine now, by pid; with `database`, only the backends
 * connected to it (their title reads "postgres: <cluster>: <user> <database> …"), so that other work
 * on a shared server is not counted (its background processes are then left out too).
 */
function postgresCpuByPid(database?: string): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const pid of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (!readFileSync(`/proc/${pid}/comm`, "utf8").startsWith("postgres")) continue;
      if (database && !readFileSync(`/proc/${pid}/cmdline`, "utf8").split(/[\s\0]+/).includes(database)) continue;
      byPid.set(Number(pid), processCpuMs(Number(pid)));
    } catch {
      // the process ended between the listing and the read
    }
  }
  return byPid;
}

/**
 * Starts measuring the CPU of every postgres process on the machine (run on an otherwise idle
 * server), or of the backends of `database` only (a shared server); the function it answers gives the ms used since, per process, so a backend that closes
 * meanwhile (a pool's idle connection) does not take its earlier CPU out of the sum. What a backend
 * used between the start and its exit is not counted.
 */
export function postgresCpuMeter(database?: string): () => number {
  const before = postgresCpuByPid(database);
  return () => {
    let used = 0;
    for (const [pid, ms] of postgresCpuByPid(database)) used += ms - (before.get(pid) ?? 0);
    return used;
  };
}

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

/**
 * The scratch database and child processes of one bench run, and their undoing: `finish` (at the end)
 * stops the children, gives them a second to exit and drops the database; past `limitMs` a watchdog
 * does the same and exits 1, so a stuck bench never outlives its limit.
 */
export async function startBenchRun(prefix: string, limitMs: number): Promise<{ dbUrl: string; children: ChildProcess[]; finish(): Promise<void> }> {
  const database = await createBenchDatabase(prefix);
  const children: ChildProcess[] = [];
  const cleanup = async () => {
    for (const child of children) child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 1_000));
    await database.drop().catch(() => {});
  };
  const watchdog = setTimeout(() => {
    console.error(`bench took over ${limitMs / 60_000} minutes; stopping`);
    void cleanup().then(() => process.exit(1));
  }, limitMs);
  return {
    dbUrl: database.url,
    children,
    finish: async () => {
      clearTimeout(watchdog);
      await cleanup();
    },
  };
}
