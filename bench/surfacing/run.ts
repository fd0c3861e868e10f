/**
 * Surfacing benchmark on PostgreSQL, against the built service (dist/offers/main.mjs) on loopback:
 *
 * 1. Snapshot pushes with 100 active targeted definitions on 10,000 players: autocannon, 10
 *    connections, 10 s, each request a random player with random counters (so rules match some
 *    pushes and assign offers), first as fast as the service answers (the most it serves; there
 *    every request waits behind the others, p50 ≈ 10 connections ÷ rate), then paced at half that
 *    rate, where the latency is the push's own. Target: p99 < 20 ms at half the most.
 * 2. An activation job over 100,000 players with snapshots: time from the activation answered to the
 *    job done (half of the players match). Target: < 60 s.
 *
 *   npm run build:offers && npx tsx bench/surfacing/run.ts
 *   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test): the server to create a scratch database on.
 *   BENCH_ONLY (push or job): run one part only.
 *   BENCH_JOB_PLAYERS (default 100000), BENCH_PUSH_PLAYERS (default 10000), OFFERS_SURFACING_CONCURRENCY (default 4).
 *   BENCH_DEFINITIONS (default 100): active targeted definitions; 0 gives the baseline of a push without targeting.
 *   BENCH_SERVICE_NODE_ARGS: node flags of the service (e.g. --cpu-prof).
 *
 * Loopback only; stops by itself (watchdog 15 minutes). The figures are appended to bench/results/surfacing.tsv.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import pg from "pg";
import { openOffersDatabase } from "../../lib/offers/db";
import { players } from "../../lib/offers/db/schema";
import { GameDirectory } from "../../lib/offers/games";
import { OffersEngine } from "../../lib/offers/engine";
import type { AudienceRule } from "../../lib/offers/contract";
import { SecretBox } from "../../lib/offers/secret-box";
import { startBenchRun, verdict, waitForHealthy } from "../lib/common";
import { BenchResults } from "../lib/results";

const PUSH_PLAYERS = Number(process.env.BENCH_PUSH_PLAYERS ?? 10_000);
const JOB_PLAYERS = Number(process.env.BENCH_JOB_PLAYERS ?? 100_000);
const DEFINITIONS = Number(process.env.BENCH_DEFINITIONS ?? 100);
const ONLY = process.env.BENCH_ONLY;
const SECRET_KEY = randomBytes(32).toString("hex");
const ADMIN_TOKEN = randomBytes(24).toString("hex");
const PORT = 4900 + Math.floor(Math.random() * 90);
const PUSH_GAME = { gameId: "push-game", clientId: "push-client", apiKey: `push-key-${randomBytes(8).toString("hex")}` };
const JOB_GAME = { gameId: "job-game", clientId: "job-client", apiKey: `job-key-${randomBytes(8).toString("hex")}` };
const results = new BenchResults("surfacing", { definitions: DEFINITIONS, push_players: PUSH_PLAYERS, job_players: JOB_PLAYERS });

/** The URL of this run's scratch database, set first thing in main. */
let dbUrl = "";

const reward = { kind: "coins" as const, rewardId: "gold", name: "Gold", amount: 10 };
const CURRENCIES = ["gold", "gems", "tickets"];

/** 100 rules of the shapes live ops write, each matching about 1% of random snapshots (a push matches ~1 new rule). */
function audienceOf(i: number): AudienceRule {
  const currency = CURRENCIES[i % CURRENCIES.length];
  switch (i % 5) {
    case 0:
      return { all: [{ field: "loginStreak", op: "gte", value: 28 }, { field: "daysInGame", op: "lt", value: 20 }] };
    case 1:
      return { field: `currencies.${currency}.out`, op: "between", value: [9_000 + i, 9_100 + i] };
    case 2:
      return { all: [{ field: "levels.castle.level", op: "eq", value: 40 + (i % 10) }, { any: [{ field: "daysInGame", op: "gte", value: 50 }, { field: "username", op: "in", value: [`player-${i}`, `player-${i * 7}`] }] }] };
    case 3:
      return { all: [{ field: "trustScore", op: "gt", value: 98 }, { not: { field: `currencies.${currency}.balance`, op: "lt", value: 500 } }] };
    default:
      return { all: [{ field: `currencies.${currency}.balance`, op: "gte", value: 9_900 }, { field: "loginStreak", op: "exists" }] };
  }
}

const randomSnapshot = (playerId: string) => ({
  playerId,
  username: playerId,
  daysInGame: Math.floor(Math.random() * 100),
  loginStreak: Math.floor(Math.random() * 30),
  trustScore: Math.floor(Math.random() * 100),
  currencies: Object.fromEntries(CURRENCIES.map((c) => [c, { balance: Math.floor(Math.random() * 10_000), in: 10_000, out: Math.floor(Math.random() * 10_000) }])),
  levels: { castle: { level: Math.floor(Math.random() * 50) } },
});

async function seed() {
  const database = await openOffersDatabase({ url: dbUrl, poolSize: 4 });
  const db = database.db;
  const games = new GameDirectory(db, new SecretBox(SECRET_KEY));
  const engine = new OffersEngine({ db });
  const now = new Date();
  if (ONLY !== "job") {
    await games.createGame({ ...PUSH_GAME, name: "Push game", maxOfferSlots: 3 });
    for (let i = 0; i < DEFINITIONS; i++) {
      await engine.upsertDefinition(PUSH_GAME.gameId, `rule-${i}`, { name: `Rule ${i}`, rewards: [reward], durationSeconds: 86_400, realTime: i % 2 === 0, priority: i % 7, audience: audienceOf(i) });
    }
    for (let start = 0; start < PUSH_PLAYERS; start += 1_000) {
      await db.insert(players).values(
        Array.from({ length: Math.min(1_000, PUSH_PLAYERS - start) }, (_, k) => ({ gameId: PUSH_GAME.gameId, ...randomSnapshot(`player-${start + k}`), createdAt: now, updatedAt: now })),
      );
    }
  }
  if (ONLY !== "push") {
    await games.createGame({ ...JOB_GAME, name: "Job game", maxOfferSlots: 3 });
    for (let start = 0; start < JOB_PLAYERS; start += 2_000) {
      await db.insert(players).values(
        Array.from({ length: Math.min(2_000, JOB_PLAYERS - start) }, (_, k) => {
          const n = start + k;
          return { gameId: JOB_GAME.gameId, playerId: `p${String(n).padStart(7, "0")}`, username: `p${n}`, loginStreak: n % 2 === 0 ? 5 : 1, createdAt: now, updatedAt: now };
        }),
      );
    }
  }
  // The shared server runs without autovacuum: plans need fresh statistics.
  await db.execute("analyze");
  await database.close();
}

function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(command, args, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } });
}

async function assignedCount(): Promise<number> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const { rows } = await client.query("select count(*)::int as n from offers_instances where game_id = $1", [PUSH_GAME.gameId]);
    return rows[0].n as number;
  } finally {
    await client.end();
  }
}

/**
 * Waits until the surfacing jobs the seed's activations queued are done: the pushes are measured in the
 * steady state of 100 active definitions, not beside 100 jobs walking every player.
 */
async function seedJobsDone(): Promise<number> {
  const started = Date.now();
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query("select count(*)::int as n from offers_surfacing_jobs where status in ('queued', 'running')");
      if (rows[0].n === 0) return (Date.now() - started) / 1000;
      if (Date.now() - started > 300_000) throw new Error(`${rows[0].n} surfacing jobs still pending after 5 minutes`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await client.end();
  }
}

async function pushes(): Promise<boolean> {
  console.log(`the seed's surfacing jobs done after ${(await seedJobsDone()).toFixed(1)} s`);
  const body = () => JSON.stringify(randomSnapshot(`player-${Math.floor(Math.random() * PUSH_PLAYERS)}`));
  const request = (overallRate?: number) =>
    autocannon({
      url: `http://127.0.0.1:${PORT}/v1/player/snapshot`,
      connections: 10,
      duration: 10,
      ...(overallRate ? { overallRate } : {}),
      requests: [{ method: "POST", headers: { "content-type": "application/json", "x-client-id": PUSH_GAME.clientId, "x-api-key": PUSH_GAME.apiKey }, setupRequest: (req) => ({ ...req, body: body() }) }],
    });
  await request(); // warm-up: JIT, plans, connections
  const assignedBefore = await assignedCount();
  const most = await request();
  const perPush = (await assignedCount()) - assignedBefore;
  const rate = Math.max(1, Math.round(most.requests.average / 2));
  const paced = await request(rate);
  const p99 = paced.latency.p99;
  const where = `snapshot push, ${DEFINITIONS} active definitions, ${PUSH_PLAYERS.toLocaleString("en")} players, 10 connections`;
  console.log(
    `${where}, as fast as answered: ${Math.round(most.requests.average).toLocaleString("en")} req/s, p50 ${most.latency.p50} ms, p99 ${most.latency.p99} ms; ` +
      `${(perPush / most.requests.total).toFixed(2)} offers assigned per push; non-2xx ${most.non2xx}, errors ${most.errors}\n` +
      `${where}, paced at ${rate.toLocaleString("en")} req/s (half of that): ${Math.round(paced.requests.average).toLocaleString("en")} req/s, ` +
      `p50 ${paced.latency.p50} ms, p99 ${p99} ms (target < 20 ms) ${verdict(p99 < 20)}; non-2xx ${paced.non2xx}, errors ${paced.errors}`,
  );
  results
    .record("push.most_rate", most.requests.average, "req/s")
    .record("push.most_p50", most.latency.p50, "ms")
    .record("push.most_p99", most.latency.p99, "ms")
    .record("push.offers_assigned_per_push", perPush / most.requests.total, "offers")
    .record("push.paced_rate", paced.requests.average, "req/s")
    .record("push.paced_p50", paced.latency.p50, "ms")
    .record("push.paced_p99", p99, "ms", { text: "< 20, no non-2xx", met: p99 < 20 && most.non2xx === 0 && paced.non2xx === 0 });
  return p99 < 20 && most.non2xx === 0 && paced.non2xx === 0;
}

async function activationJob(): Promise<boolean> {
  const admin = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`http://127.0.0.1:${PORT}/v1/admin/games/${JOB_GAME.gameId}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body ? { "content-type": "application/json" } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const created = await admin("POST", "/definitions", { offerId: "streak", name: "Streak", rewards: [reward], durationSeconds: 86_400, realTime: true, audience: { field: "loginStreak", op: "gte", value: 3 } });
  const started = Date.now();
  // A change of a definition names the ETag it is based on (docs/operations/consistency.md, "Concurrent changes").
  await admin("POST", "/definitions/streak/activate", undefined, { "if-match": created.definition.etag });
  let job: { status: string; playersEvaluated: number; activations: number } | undefined;
  let lastPrint = 0;
  while (Date.now() - started < 300_000) {
    job = (await admin("GET", "/definitions/streak/jobs")).jobs[0];
    if (job?.status === "done" || job?.status === "failed") break;
    if (Date.now() - lastPrint > 5_000) {
      lastPrint = Date.now();
      console.log(`  … ${job?.playersEvaluated ?? 0} players evaluated, ${job?.activations ?? 0} activations`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `activation job over ${JOB_PLAYERS.toLocaleString("en")} players (${job?.activations ?? 0} activations): ${seconds.toFixed(1)} s (target < 60 s) ${verdict(job?.status === "done" && seconds < 60)}; ${Math.round((job?.playersEvaluated ?? 0) / seconds).toLocaleString("en")} players/s`,
  );
  results
    .record("job.seconds", seconds, "s", { text: "< 60, done", met: job?.status === "done" && seconds < 60 })
    .record("job.players_per_second", (job?.playersEvaluated ?? 0) / seconds, "players/s")
    .record("job.activations", job?.activations ?? 0, "offers");
  return job?.status === "done" && seconds < 60;
}

async function main() {
  const run = await startBenchRun("bench_surfacing", 900_000);
  dbUrl = run.dbUrl;
  const children = run.children;
  let ok = true;
  try {
    const seedStart = Date.now();
    await seed();
    console.log(`seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
    const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? "").split(" ").filter(Boolean);
    children.push(
      start("node", [...nodeArgs, "dist/offers/main.mjs"], {
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        OFFERS_PORT: String(PORT),
        OFFERS_DATABASE_URL: dbUrl,
        OFFERS_SECRET_KEY: SECRET_KEY,
        OFFERS_ADMIN_TOKEN: ADMIN_TOKEN,
        OFFERS_DEMO_DATA: "off",
        OFFERS_SURFACING_POLL_MS: "200",
        REDIS_URL: "",
        // One demo game driven far past any real game's budgets: unlimited unless set (to measure the limiter).
        OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE: process.env.OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE ?? "0",
        OFFERS_RATE_LIMIT_SERVER_PER_MINUTE: process.env.OFFERS_RATE_LIMIT_SERVER_PER_MINUTE ?? "0",
      }),
    );
    await waitForHealthy(`http://127.0.0.1:${PORT}/health`);
    if (ONLY !== "job") ok = (await pushes()) && ok;
    if (ONLY !== "push") ok = (await activationJob()) && ok;
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
