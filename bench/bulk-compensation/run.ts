/**
 * Incident compensation in bulk on PostgreSQL, against the built service (dist/offers/main.mjs) on
 * loopback: a job of BENCH_BULK_PLAYERS players (default 100,000) asked for as a list of ids and
 * approved by a second person; the service is killed with SIGKILL once half of the players are
 * granted and started again on the same database; the job continues.
 *
 * Figures and targets:
 * - seconds from the approval answered to the job done (every player granted): < 60 s;
 * - seconds from the approval to every reward.granted event received by a webhook endpoint (a
 *   receiver in a process of its own): < 120 s;
 * - players granted more than once (ledger rows and events per player of the job): 0.
 *
 *   npm run build:offers && npx tsx bench/bulk-compensation/run.ts
 *   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test): the server to create a scratch database on.
 *   BENCH_BULK_PLAYERS (default 100000); BENCH_BULK_KILL (default on): off runs without the SIGKILL.
 *   OFFERS_BULK_BATCH_SIZE, OFFERS_BULK_CONCURRENCY: passed to the service.
 *
 * Loopback only; stops by itself (watchdog 15 minutes). The figures are appended to bench/results/bulk-compensation.tsv.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openOffersDatabase } from "../../lib/offers/db";
import { players } from "../../lib/offers/db/schema";
import { GameDirectory } from "../../lib/offers/games";
import { SecretBox } from "../../lib/offers/secret-box";
import { startBenchRun, verdict, waitForHealthy } from "../lib/common";
import { BenchResults } from "../lib/results";

const PLAYERS = Number(process.env.BENCH_BULK_PLAYERS ?? 100_000);
const KILL = process.env.BENCH_BULK_KILL !== "off";
const SECRET_KEY = randomBytes(32).toString("hex");
const ADMIN_TOKEN = randomBytes(24).toString("hex");
const PORT = 4800 + Math.floor(Math.random() * 90);
const RECEIVER_PORT = PORT + 100;
const GAME = { gameId: "bulk-game", clientId: "bulk-client", apiKey: `bulk-key-${randomBytes(8).toString("hex")}` };
const results = new BenchResults("bulk-compensation", { players: PLAYERS, kill: KILL ? "on" : "off" });
const ids = Array.from({ length: PLAYERS }, (_, i) => `p${String(i).padStart(7, "0")}`);
const base = `http://127.0.0.1:${PORT}`;

function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(command, args, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } });
}

async function seed(dbUrl: string): Promise<void> {
  const database = await openOffersDatabase({ url: dbUrl, poolSize: 2 });
  const now = new Date();
  await new GameDirectory(database.db, new SecretBox(SECRET_KEY)).createGame({ ...GAME, name: "Bulk game" });
  for (let i = 0; i < ids.length; i += 2_000) {
    await database.db.insert(players).values(ids.slice(i, i + 2_000).map((playerId) => ({ gameId: GAME.gameId, playerId, createdAt: now, updatedAt: now })));
  }
  // The shared server runs without autovacuum: plans need fresh statistics.
  await database.db.execute("analyze");
  await database.close();
}

type Job = { jobId: string; status: string; progress: { granted: number; total: number } };

async function admin(method: string, url: string, body?: unknown): Promise<{ job: Job }> {
  const res = await fetch(`${base}/v1/admin/games/${GAME.gameId}${url}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { job: Job };
}

async function until<T>(what: string, limitMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not within ${limitMs / 1000} s`);
}

async function main(): Promise<void> {
  const run = await startBenchRun("bulk", 15 * 60_000);
  const children = run.children;
  let ok = true;
  try {
    await seed(run.dbUrl);
    const serviceEnv = {
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      OFFERS_PORT: String(PORT),
      OFFERS_DATABASE_URL: run.dbUrl,
      OFFERS_SECRET_KEY: SECRET_KEY,
      OFFERS_ADMIN_TOKEN: ADMIN_TOKEN,
      OFFERS_DEMO_DATA: "off",
      OFFERS_SURFACING_POLL_MS: "200",
      // The receiver is on loopback.
      OFFERS_WEBHOOK_ALLOW_PRIVATE: "1",
      OFFERS_RATE_LIMIT_SERVER_PER_MINUTE: "0",
      REDIS_URL: "",
    };
    const startService = async () => {
      const child = start("node", ["dist/offers/main.mjs"], serviceEnv);
      children.push(child);
      await waitForHealthy(`${base}/health`);
      return child;
    };
    const receiver = start(process.execPath, ["--import", "tsx", "bench/offers-api/receiver.ts"], { RECEIVER_PORT: String(RECEIVER_PORT) });
    children.push(receiver);
    const receiverUrl = `http://127.0.0.1:${RECEIVER_PORT}/`;
    await waitForHealthy(receiverUrl);
    let service = await startService();
    const api = { "x-api-key": GAME.apiKey, "x-client-id": GAME.clientId, "content-type": "application/json" };
    await fetch(`${base}/v1/currencies/gold`, { method: "PUT", headers: api, body: JSON.stringify({ name: "Gold", image: "https://img.example/gold.png" }) });
    const endpoint = await fetch(`${base}/v1/webhooks/endpoints`, { method: "POST", headers: api, body: JSON.stringify({ url: `${receiverUrl}rewards` }) });
    if (!endpoint.ok) throw new Error(`endpoint not created: ${endpoint.status} ${await endpoint.text()}`);

    const asked = await admin("POST", "/bulk-compensations", { kind: "coins", rewardId: "gold", amount: 10, reason: "Bench outage", actor: "bench-support", players: { list: ids.join("\n") } });
    const approvedAt = Date.now();
    await admin("POST", `/bulk-compensations/${asked.job.jobId}/approve`, { actor: "bench-lead" });
    const job = () => admin("GET", `/bulk-compensations/${asked.job.jobId}`).then((a) => a.job);
    if (KILL) {
      await until("half granted", 120_000, async () => ((await job()).progress.granted >= PLAYERS / 2 ? true : undefined));
      service.kill("SIGKILL");
      await new Promise((r) => service.once("exit", r));
      console.log(`killed at ${((Date.now() - approvedAt) / 1000).toFixed(1)} s`);
      service = await startService();
    }
    const done = await until("job done", 300_000, async () => {
      const current = await job();
      return current.status === "done" ? current : undefined;
    });
    const grantedSeconds = (Date.now() - approvedAt) / 1000;
    const received = async () => ((await (await fetch(`${receiverUrl}count`)).json()) as { received: number }).received;
    await until("deliveries drained", 600_000, async () => ((await received()) >= PLAYERS ? true : undefined));
    const drainedSeconds = (Date.now() - approvedAt) / 1000;
    const client = new pg.Client({ connectionString: run.dbUrl });
    await client.connect();
    let duplicated = 0;
    try {
      for (const table of ["offers_reward_ledger", "offers_reward_events"]) {
        const { rows } = await client.query(`select count(*)::int - count(distinct player_id)::int as extra from ${table} where source_id like $1`, [`${done.jobId}:%`]);
        duplicated += rows[0].extra as number;
      }
    } finally {
      await client.end();
    }
    const redelivered = ((await (await fetch(receiverUrl)).json()) as { duplicates: number }).duplicates;
    results
      .record("bulk.seconds_to_granted", grantedSeconds, "s", { text: "< 60", met: grantedSeconds < 60 })
      .record("bulk.seconds_to_delivered", drainedSeconds, "s", { text: "< 120", met: drainedSeconds < 120 })
      .record("bulk.players_granted_twice", duplicated, "players", { text: "= 0", met: duplicated === 0 })
      .record("bulk.webhooks_redelivered", redelivered, "deliveries");
    console.log(`bulk compensation of ${PLAYERS} players${KILL ? " (SIGKILL at half)" : ""}:
  granted ${done.progress.granted}/${done.progress.total} in ${grantedSeconds.toFixed(1)} s (target < 60 s) ${verdict(grantedSeconds < 60)}
  every event delivered after ${drainedSeconds.toFixed(1)} s (target < 120 s) ${verdict(drainedSeconds < 120)}
  players granted twice: ${duplicated} (target 0) ${verdict(duplicated === 0)}; webhooks delivered again (at least once, same id): ${redelivered}`);
    ok = grantedSeconds < 60 && drainedSeconds < 120 && duplicated === 0;
    results.save();
  } finally {
    await run.finish();
  }
  process.exit(ok ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
