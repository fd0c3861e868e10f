/**
 * Throwaway PostgreSQL, PgBouncer and Redis servers for fault tests: each test starts its own on a free port,
 * stops, freezes (SIGSTOP) and thaws (SIGCONT) it, and removes it at the end. The shared servers
 * (5432, 6379) are never touched. PostgreSQL runs as the `postgres` user when the test runs as root
 * (initdb refuses root).
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not come up within ${timeoutMs} ms`);
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** The bin folder of the newest PostgreSQL installed from Debian's packages, or null. */
export function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], "bin") : null;
}

export const canRunThrowawayPostgres = (): boolean => postgresBinDir() !== null;
export const canRunThrowawayRedis = (): boolean => existsSync("/usr/bin/redis-server") || existsSync("/usr/local/bin/redis-server");

export interface ThrowawayServer {
  port: number;
  /** Connection URL (database `postgres` for PostgreSQL). */
  url: string;
  /** SIGSTOP of every process of the server (PostgreSQL: the postmaster and its backends): it holds its sockets but answers nothing, like a frozen host. */
  freeze(): void;
  /** SIGCONT after freeze(). */
  thaw(): void;
  /** Stops the server (fast); start() brings it back on the same port and data. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its files. Safe to call twice. */
  destroy(): Promise<void>;
}

/** A process and its direct children (PostgreSQL's backends, checkpointer, …), read from /proc. */
function withChildren(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return [pid, ...children];
}

function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone meanwhile
    }
  }
}

/** Running as root, the server runs as postgres (initdb and pgbouncer refuse root): its files must be postgres's. */
async function ownedByPostgres(paths: string[]): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const uid = Number((await run("id", ["-u", "postgres"])).stdout.trim());
  const gid = Number((await run("id", ["-g", "postgres"])).stdout.trim());
  for (const file of paths) chownSync(file, uid, gid);
}

function asPostgresUser(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
}

/** ThrowawayServer.destroy: stops the server and removes its folder; a second call does nothing. */
function destroyOnce(stop: () => Promise<void>, dir: string): () => Promise<void> {
  let destroyed = false;
  return async () => {
    if (destroyed) return;
    destroyed = true;
    await stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

/**
 * A PostgreSQL server of its own (initdb into a temporary folder, trust authentication). `settings`:
 * more server settings (`-c name=value`), e.g. a library to preload.
 */
export async function startThrowawayPostgres(settings: Record<string, string> = {}): Promise<ThrowawayServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("no PostgreSQL binaries under /usr/lib/postgresql");
  const dir = mkdtempSync(path.join(os.tmpdir(), "pg-throwaway-"));
  const data = path.join(dir, "data");
  await ownedByPostgres([dir]);
  chmodSync(dir, 0o700);
  const [initCmd, initArgs] = asPostgresUser(path.join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  await run(initCmd, initArgs);
  const port = await freePort();
  let pid: number | null = null;
  const pgCtl = (args: string[]) => {
    const [cmd, a] = asPostgresUser(path.join(bin, "pg_ctl"), args);
    return run(cmd, a);
  };
  const start = async () => {
    if (pid !== null) return; // already running
    await pgCtl(["-D", data, "-l", path.join(dir, "log"), "-w", "-t", "30", "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200${Object.entries(settings).map(([name, value]) => ` -c ${name}=${value}`).join("")}`, "start"]);
    pid = Number(readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  };
  const stop = async () => {
    if (pid === null) return;
    signalAll(withChildren(pid), "SIGCONT");
    await pgCtl(["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
    pid = null;
  };
  await start();
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // Freezing only the postmaster would leave open connections answering.
    freeze: () => {
      if (pid !== null) signalAll(withChildren(pid), "SIGSTOP");
    },
    thaw: () => {
      if (pid !== null) signalAll(withChildren(pid), "SIGCONT");
    },
    stop,
    start,
    destroy: destroyOnce(stop, dir),
  };
}

/** A Redis server of its own on a free port, keeping nothing on disk. */
export async function startThrowawayRedis(): Promise<ThrowawayServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "redis-throwaway-"));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    if (child) return; // already running: a second server on the same port would leak
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], { stdio: "ignore" });
    await waitFor(() => canConnect(port), 10_000, `redis-server on ${port}`);
  };
  const stop = async () => {
    const c = child;
    if (!c) return;
    child = null;
    if (c.exitCode !== null || c.signalCode) return;
    const gone = new Promise<void>((resolve) => c.once("exit", () => resolve()));
    c.kill("SIGCONT");
    c.kill("SIGKILL");
    await gone;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    freeze: () => child?.kill("SIGSTOP"),
    thaw: () => child?.kill("SIGCONT"),
    stop,
    start,
    destroy: destroyOnce(stop, dir),
  };
}

export const canRunThrowawayPgBouncer = (): boolean => existsSync("/usr/sbin/pgbouncer");

/**
 * PgBouncer of its own in transaction mode, in front of the PostgreSQL server of `serverUrl` (a test
 * database server; it is only connected to). Runs as the postgres user, as it refuses root.
 */
export async function startThrowawayPgBouncer(serverUrl: string): Promise<{ url(database: string): string; destroy(): Promise<void> }> {
  const server = new URL(serverUrl);
  const dir = mkdtempSync(path.join(os.tmpdir(), "pgbouncer-throwaway-"));
  const port = await freePort();
  writeFileSync(path.join(dir, "users.txt"), '"postgres" ""\n');
  writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      // node-postgres sends these at startup (statement_timeout is how the pools bound statements).
      "ignore_startup_parameters = extra_float_digits, statement_timeout, options",
      `logfile = ${path.join(dir, "log")}`,
      `pidfile = ${path.join(dir, "pid")}`,
    ].join("\n"),
  );
  await ownedByPostgres([dir, path.join(dir, "users.txt"), path.join(dir, "pgbouncer.ini")]);
  const [cmd, args] = asPostgresUser("/usr/sbin/pgbouncer", ["-d", path.join(dir, "pgbouncer.ini")]);
  await run(cmd, args);
  await waitFor(() => canConnect(port), 10_000, `pgbouncer on ${port}`).catch((error: Error) => {
    throw new Error(`${error.message}: ${readFileSync(path.join(dir, "log"), "utf8")}`);
  });
  const pid = Number(readFileSync(path.join(dir, "pid"), "utf8").trim());
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    destroy: async () => {
      signalAll([pid], "SIGTERM");
      const gone = Date.now() + 5_000;
      while (existsSync(`/proc/${pid}`) && Date.now() < gone) await new Promise((r) => setTimeout(r, 50));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
