/**
 * Offers API benchmark on PostgreSQL: seeds 10,000 players × 5 offers, then runs autocannon
 * (50 connections, alternating 5 s runs) against POST /v1/client/player/campaigns with valid JWTs of distinct
 * players, and against a bare node:http server doing the same work, in the same run; then claims
 * per second with distinct claimable instances, against the service and against the bare server running
 * the same claim statement on the same pool size, in alternating runs; then claims per second again with one webhook endpoint
 * enabled (a receiver in a process of its own) against the same without, and the delivery latency
 * from the claim to receipt at that rate.
 *
 *   npm run build:offers && npx tsx bench/offers-api/run.ts
 *   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test): the server to create a scratch database on.
 *   BENCH_INSTANCES (default 1): offers instances sharing the database for the claims run.
 *   OFFERS_DATABASE_POOL_SIZE (default 8): PostgreSQL connections per instance.
 *   OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE / OFFERS_RATE_LIMIT_SERVER_PER_MINUTE (default 0 = unlimited): set to measure the limiter.
 *   BENCH_ONLY (campaigns, claims or delivery): run one part only, e.g. while profiling it.
 *   BENCH_CAMPAIGN_PAIRS (default 8): 5 s runs of each server for the campaigns ratio, either first in turn
 *     (the ratio sits near its target, and one pair swings by ±0.05 on a shared 2-core host).
 *   BENCH_CAMPAIGN_WARMUP (default 40,000): requests each server answers first, unmeasured, so that the JIT has settled.
 *   BENCH_CLAIM_PAIRS (default 4): 5 s claim runs of each server for the claims ratio, either first in turn.
 *   BENCH_SERVICE_NODE_ARGS, BENCH_BARE_NODE_ARGS: node flags of the service and of the bare server (e.g. --cpu-prof).
 *   BENCH_CLAIM_ORDER (spread or bursts, default spread): claims of distinct players at once, or
 *     each player's three claims in a row.
 *   BENCH_CLAIM_PLAYERS (default 115,000), BENCH_DELIVERY_PLAYERS (default 28,000): players with three claimable
 *     offers each; a run that finds no claimable offer left stops the bench (the defaults were raised on 2026-11-27,
 *     when a host claiming 4,200/s ran out at 84,000).
 *   BENCH_PLAYERS (default 10,000): players whose campaigns are read; BENCH_DELIVERY_PAIRS (default 4).
 *
 * Targets: campaigns ≥ 0.9 × bare, p99 < 25 ms; claims ≥ 1,000/s and ≥ 0.8 × bare; claims with an endpoint ≥ 0.9 × without;
 * delivery latency p99 < 1 s. Loopback only; stops by itself. The figures are appended to bench/results/offers-api.tsv.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import autocannon, { type Result as CannonResult } from "autocannon";
import { openOffersDatabase } from "../../lib/offers/db";
import { offerInstances, players } from "../../lib/offers/db/schema";
import { GameDirectory } from "../../lib/offers/games";
import { OffersEngine } from "../../lib/offers/engine";
import { SecretBox } from "../../lib/offers/secret-box";
import { percentile, postgresCpuMeter, processCpuMs, startBenchRun, verdict, waitForHealthy } from "../lib/common";
import { BenchResults } from "../lib/results";
import { BENCH_OFFER_DEFINITION, BENCH_OFFER_ID, benchInstanceRow, benchPlayerRow, insertReaders, readerTokens } from "./rows";

/** The delivery part: pairs of claim runs without and with an endpoint, RUN_SECONDS each. */
const DELIVERY_PAIRS = Number(process.env.BENCH_DELIVERY_PAIRS ?? 4);
const CAMPAIGN_PAIRS = Number(process.env.BENCH_CAMPAIGN_PAIRS ?? 8);
/** Requests each server answers before the campaigns runs are measured. */
const CAMPAIGN_WARMUP = Number(process.env.BENCH_CAMPAIGN_WARMUP ?? 40_000);
/** Pairs of 5 s claim runs, the service's and the bare server's, either first in turn. */
const CLAIM_PAIRS = Number(process.env.BENCH_CLAIM_PAIRS ?? 4);
const RUN_SECONDS = 5;

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 10_000);
const OFFERS_PER_PLAYER = 5;
const ONLY = process.env.BENCH_ONLY;
// × 3 claimable each, for the claims part (44 s of claims with the warm-ups, at up to 5,000/s: 4,200/s
// seen on a fast host, where 84,000 ran out) and the delivery part's runs without an endpoint (23 s at
// up to 5,000/s); a run that finds none left stops the bench rather than count refusals.
const CLAIM_PLAYERS = Number(process.env.BENCH_CLAIM_PLAYERS ?? (ONLY === "delivery" ? 40_000 : ONLY === "claims" ? 75_000 : 115_000));
/** Players of the game with a webhook endpoint (× 3 claimable each), for the delivery part's runs with it (20 s). */
const DELIVERY_PLAYERS = Number(process.env.BENCH_DELIVERY_PLAYERS ?? 28_000);
/** spread: concurrent claims are of distinct players; bursts: each player's three claims in a row (they wait on the player's lock). */
const CLAIM_ORDER = process.env.BENCH_CLAIM_ORDER === "bursts" ? "bursts" : "spread";
const GAME = "bench-game";
const HOOK_GAME = "bench-game-webhooks";
const HOOK_CLIENT_ID = "bench-hooks-client";
const HOOK_API_KEY = `bench-hooks-key-${randomBytes(8).toString("hex")}`;
const CLIENT_ID = "bench-client";
const API_KEY = `bench-key-${randomBytes(8).toString("hex")}`;
const SECRET_KEY = randomBytes(32).toString("hex");
const ADMIN_TOKEN = randomBytes(24).toString("hex");
const SERVICE_PORT = 4700 + Math.floor(Math.random() * 100);
/** Offers instances sharing the database for the claims run (the service scales out by instances). */
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
const instancePort = (i: number) => (i === 0 ? SERVICE_PORT : SERVICE_PORT + 200 + i);
const BARE_PORT = SERVICE_PORT + 100;
const RECEIVER_PORT = SERVICE_PORT + 150;

/** The URL of this run's scratch database, set first thing in main. */
let dbUrl = "";

async function seed() {
  const database = await openOffersDatabase({ url: dbUrl, poolSize: 4 });
  const db = database.db;
  const games = new GameDirectory(db, new SecretBox(SECRET_KEY));
  await games.createGame({ gameId: GAME, name: "Bench game", clientId: CLIENT_ID, apiKey: API_KEY });
  await games.upsertCurrency(GAME, "gold", { name: "Gold", image: "https://example.com/gold.png" });
  // The game with a webhook endpoint (the delivery part): the same claims, delivered.
  await games.createGame({ gameId: HOOK_GAME, name: "Bench game with a webhook", clientId: HOOK_CLIENT_ID, apiKey: HOOK_API_KEY });
  const engine = new OffersEngine({ db });
  await engine.upsertDefinition(GAME, BENCH_OFFER_ID, BENCH_OFFER_DEFINITION);
  const now = new Date();
  const later = new Date(now.getTime() + 86_400_000);
  const instance = (playerId: string, status: (typeof offerInstances.$inferInsert)["status"], expiresAt: Date, gameId = GAME) =>
    benchInstanceRow(gameId, playerId, status, { now, expiresAt });
  const playerRow = (playerId: string, gameId = GAME) => benchPlayerRow(gameId, playerId, now);
  const batch = 400; // × 3 rows × 18 columns stays well under PostgreSQL's 65,535 bind parameters
  await insertReaders(db, GAME, PLAYERS, now);
  // Claimers: three claimable offers each.
  const claimers = async (gameId: string, count: number) => {
    const claimable: Claimable[] = [];
    for (let start = 0; start < count; start += batch) {
      const ids = Array.from({ length: Math.min(batch, count - start) }, (_, i) => `claimer-${start + i}`);
      await db.insert(players).values(ids.map((id) => playerRow(id, gameId)));
      const rows = ids.flatMap((id) => [instance(id, "claimable", later, gameId), instance(id, "claimable", later, gameId), instance(id, "claimable", later, gameId)]);
      await db.insert(offerInstances).values(rows);
      claimable.push(...rows.map((r) => ({ playerId: r.playerId, instanceId: r.instanceId })));
    }
    if (CLAIM_ORDER === "bursts") return claimable;
    // Spread: every player's first offer, then every player's second, …: concurrent claims are of
    // distinct players, as when many players claim at once.
    return [0, 1, 2].flatMap((round) => claimable.filter((_, i) => i % 3 === round));
  };
  const claimable = ONLY === "campaigns" ? [] : await claimers(GAME, CLAIM_PLAYERS);
  const hookClaimable = ONLY === "campaigns" || ONLY === "claims" ? [] : await claimers(HOOK_GAME, DELIVERY_PLAYERS);
  await database.db.execute("analyze");
  await database.close();
  return { claimable, hookClaimable };
}

type Claimable = { playerId: string; instanceId: string };

function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(command, args, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } });
}

async function main() {
  const run = await startBenchRun("bench_offers", 600_000);
  dbUrl = run.dbUrl;
  const children = run.children;
  const results = new BenchResults("offers-api", { instances: INSTANCES, claim_order: CLAIM_ORDER });
  try {
    const seedStart = Date.now();
    const { claimable, hookClaimable } = await seed();
    console.log(`seeded ${PLAYERS} players × ${OFFERS_PER_PLAYER} offers and ${claimable.length + hookClaimable.length} claimable offers in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);

    const serviceEnv = (port: number) => ({
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      OFFERS_PORT: String(port),
      OFFERS_DATABASE_URL: dbUrl,
      OFFERS_SECRET_KEY: SECRET_KEY,
      OFFERS_ADMIN_TOKEN: ADMIN_TOKEN,
      OFFERS_DEMO_DATA: "off",
      OFFERS_DATABASE_POOL_SIZE: process.env.OFFERS_DATABASE_POOL_SIZE ?? "8",
      REDIS_URL: "",
      // One demo game driven far past any real game's budgets: unlimited unless set (to measure the limiter).
      OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE: process.env.OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE ?? "0",
      OFFERS_RATE_LIMIT_SERVER_PER_MINUTE: process.env.OFFERS_RATE_LIMIT_SERVER_PER_MINUTE ?? "0",
      // The bench's webhook receiver is on loopback.
      OFFERS_WEBHOOK_ALLOW_PRIVATE: "1",
    });
    // BENCH_SERVICE_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", to profile the service.
    const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? "").split(" ").filter(Boolean);
    for (let i = 0; i < INSTANCES; i++) children.push(start("node", [...nodeArgs, "dist/offers/main.mjs"], serviceEnv(instancePort(i))));
    // BENCH_BARE_NODE_ARGS: the same for the bare server (CPU per request of both, side by side).
    const bareArgs = (process.env.BENCH_BARE_NODE_ARGS ?? "").split(" ").filter(Boolean);
    children.push(
      start(process.execPath, [...bareArgs, "--import", "tsx", "bench/offers-api/bare-server.ts"], { OFFERS_DATABASE_POOL_SIZE: process.env.OFFERS_DATABASE_POOL_SIZE ?? "8", OFFERS_DATABASE_URL: dbUrl, OFFERS_SECRET_KEY: SECRET_KEY, BARE_PORT: String(BARE_PORT) }),
    );
    for (let i = 0; i < INSTANCES; i++) await waitForHealthy(`http://127.0.0.1:${instancePort(i)}/health`);
    await waitForHealthy(`http://127.0.0.1:${BARE_PORT}/health`);

    const tokens = await readerTokens(GAME, API_KEY, PLAYERS);

    const servicePid = children[0]!.pid;
    const barePid = children[INSTANCES]!.pid;
    const campaigns = async (port: number, length: { duration: number } | { amount: number }) => {
      let next = 0;
      return autocannon({
        url: `http://127.0.0.1:${port}/v1/client/player/campaigns`,
        connections: 50,
        ...length,
        requests: [
          {
            method: "POST",
            setupRequest: (request) => ({
              ...request,
              headers: { "content-type": "application/json", authorization: `Bearer ${tokens[next++ % tokens.length]}` },
              body: '{"viewingCampaigns":false}',
            }),
          },
        ],
      });
    };
    const only = ONLY;
    if (only !== "claims" && only !== "delivery") {
      // Warm both (JIT, key cache, connection pools) with every player's fetch, so that no measured
      // run is the first to read a player (a first read may settle what became due since the seed),
      // then alternate 5 s runs of each, so a load that comes and goes weighs on both alike.
      // Warmed until the JIT settles: after 10,000 requests V8 still compiles about 60 functions per
      // 10,000 more (the service's more than the bare server's); after 40,000, a few.
      await campaigns(SERVICE_PORT, { amount: CAMPAIGN_WARMUP });
      await campaigns(BARE_PORT, { amount: CAMPAIGN_WARMUP });
      const runs: Record<"service" | "bare", CannonResult[]> = { service: [], bare: [] };
      const cpu = { service: 0, bare: 0 };
      const postgresCpu = { service: 0, bare: 0 };
      const measure = async (which: "service" | "bare") => {
        const pid = which === "service" ? servicePid : barePid;
        const before = processCpuMs(pid);
        const postgresUsed = postgresCpuMeter();
        runs[which].push(await campaigns(which === "service" ? SERVICE_PORT : BARE_PORT, { duration: 5 }));
        cpu[which] += processCpuMs(pid) - before;
        postgresCpu[which] += postgresUsed();
      };
      // Either goes first in turn (service, bare; bare, service; …): the run after a pause is often
      // the slower one, and must not always be the same server's.
      for (let pair = 0; pair < CAMPAIGN_PAIRS; pair++) {
        const order = pair % 2 === 0 ? (["service", "bare"] as const) : (["bare", "service"] as const);
        for (const which of order) await measure(which);
      }
      const perRequest = (ms: number, list: CannonResult[]) => ((ms * 1000) / list.reduce((sum, run) => sum + run.requests.total, 0)).toFixed(0);
      const rate = (list: CannonResult[]) => list.reduce((sum, run) => sum + run.requests.average, 0) / list.length;
      const worst = (list: CannonResult[], key: "p50" | "p99") => Math.max(...list.map((run) => run.latency[key]));
      const row = (name: string, list: CannonResult[]) =>
        `  ${name.padEnd(16)}${rate(list).toFixed(0).padStart(7)}  ${String(worst(list, "p50")).padStart(4)} ms  ${String(worst(list, "p99")).padStart(4)} ms   ${list.reduce((sum, run) => sum + run.non2xx, 0)}   (runs: ${list.map((run) => run.requests.average.toFixed(0)).join(", ")})`;
      const ratio = rate(runs.service) / rate(runs.bare);
      const serviceP99 = worst(runs.service, "p99");
      const usPerRequest = (ms: number, list: CannonResult[]) => (ms * 1000) / list.reduce((sum, run) => sum + run.requests.total, 0);
      results
        .record("campaigns.service_rate", rate(runs.service), "req/s")
        .record("campaigns.bare_rate", rate(runs.bare), "req/s")
        .record("campaigns.ratio", ratio, "× bare", { text: ">= 0.9", met: ratio >= 0.9 })
        .record("campaigns.service_p99", serviceP99, "ms", { text: "< 25", met: serviceP99 < 25 })
        .record("campaigns.bare_p99", worst(runs.bare, "p99"), "ms")
        .record("campaigns.service_cpu_per_request", usPerRequest(cpu.service, runs.service), "µs")
        .record("campaigns.bare_cpu_per_request", usPerRequest(cpu.bare, runs.bare), "µs")
        .record("campaigns.postgres_cpu_per_request_service", usPerRequest(postgresCpu.service, runs.service), "µs")
        .record("campaigns.postgres_cpu_per_request_bare", usPerRequest(postgresCpu.bare, runs.bare), "µs");
      console.log(`
offers API benchmark (PostgreSQL, autocannon 50 connections, ${CAMPAIGN_PAIRS} × 5 s each, alternating, distinct players)
                      req/s     p50      p99     non-2xx
${row("Fastify service", runs.service)}
${row("bare node:http", runs.bare)}
  ratio             ${ratio.toFixed(2)}   target ≥ 0.9  ${verdict(ratio >= 0.9)}   (per pair: ${runs.service.map((run, i) => (run.requests.average / runs.bare[i]!.requests.average).toFixed(2)).join(", ")})
  CPU per request   service ${perRequest(cpu.service, runs.service)} µs, bare ${perRequest(cpu.bare, runs.bare)} µs; PostgreSQL's ${perRequest(postgresCpu.service, runs.service)} and ${perRequest(postgresCpu.bare, runs.bare)} µs
  service p99       ${serviceP99} ms (worst run)   target < 25 ms  ${verdict(serviceP99 < 25)}   (bare: ${worst(runs.bare, "p99")} ms; with 50 connections always busy the mean latency is 50 / req/s, ${((50 / rate(runs.service)) * 1000).toFixed(0)} ms here)`);
    }

    // Claims: distinct claimable offers, the load split evenly over the instances, 10 s per run.
    const pools = {
      plain: { offers: claimable, next: 0, headers: { "content-type": "application/json", "x-api-key": API_KEY, "x-client-id": CLIENT_ID } },
      hooks: { offers: hookClaimable, next: 0, headers: { "content-type": "application/json", "x-api-key": HOOK_API_KEY, "x-client-id": HOOK_CLIENT_ID } },
    };
    const claimRun = async (seconds = 10, pool = pools.plain, ports = Array.from({ length: INSTANCES }, (_, i) => instancePort(i))) => {
      const runs = await Promise.all(
        ports.map((port) =>
          autocannon({
            url: `http://127.0.0.1:${port}/v1/reward/sdk/claim`,
            connections: Math.ceil(50 / ports.length),
            duration: seconds,
            requests: [
              {
                method: "POST",
                setupRequest: (request) => {
                  const target = pool.offers[pool.next++ % pool.offers.length]!;
                  return {
                    ...request,
                    headers: pool.headers,
                    body: JSON.stringify({ kind: "offer", instanceId: target.instanceId, playerId: target.playerId }),
                  };
                },
              },
            ],
          }),
        ),
      );
      if (pool.next > pool.offers.length) {
        throw new Error(`the claimable offers ran out (${pool.offers.length}): raise BENCH_CLAIM_PLAYERS or BENCH_DELIVERY_PLAYERS`);
      }
      const claimed = runs.reduce((sum, run) => sum + run["2xx"], 0);
      return { claimed, refused: runs.reduce((sum, run) => sum + run.non2xx, 0), p99: Math.max(...runs.map((run) => run.latency.p99)), perSecond: claimed / seconds };
    };
    if (only !== "campaigns" && only !== "delivery") {
      // The service and the bare server claim from one pool of distinct offers, in alternating runs,
      // so a load that comes and goes on the machine (and the tables growing) weigh on both alike.
      await claimRun(2);
      await claimRun(2, pools.plain, [BARE_PORT]);
      const service: Awaited<ReturnType<typeof claimRun>>[] = [];
      const bare: Awaited<ReturnType<typeof claimRun>>[] = [];
      // Either goes first in turn: with the tables growing, the later run of a pair is the slower one
      // (about 6 % here when one build ran against itself), and must not always be the same server's.
      for (let pair = 0; pair < CLAIM_PAIRS; pair++) {
        if (pair % 2 === 0) {
          service.push(await claimRun(5));
          bare.push(await claimRun(5, pools.plain, [BARE_PORT]));
        } else {
          bare.push(await claimRun(5, pools.plain, [BARE_PORT]));
          service.push(await claimRun(5));
        }
      }
      const rate = (runs: typeof service) => runs.reduce((sum, run) => sum + run.perSecond, 0) / runs.length;
      const ratio = rate(service) / rate(bare);
      const refused = [...service, ...bare].reduce((sum, run) => sum + run.refused, 0);
      results
        .record("claims.service_rate", rate(service), "claims/s", { text: ">= 1000", met: rate(service) >= 1_000 })
        .record("claims.bare_rate", rate(bare), "claims/s")
        .record("claims.ratio", ratio, "× bare", { text: ">= 0.8", met: ratio >= 0.8 })
        .record("claims.service_p99", Math.max(...service.map((run) => run.p99)), "ms");
      console.log(`  claims            ${rate(service).toFixed(0)}/s on ${INSTANCES} instance${INSTANCES > 1 ? "s" : ""}, ${CLAIM_ORDER} (runs: ${service.map((run) => run.perSecond.toFixed(0)).join(", ")}; p99 ${Math.max(...service.map((run) => run.p99))} ms)   target ≥ 1,000/s  ${verdict(rate(service) >= 1_000)}
  claims, bare      ${rate(bare).toFixed(0)}/s (runs: ${bare.map((run) => run.perSecond.toFixed(0)).join(", ")}; p99 ${Math.max(...bare.map((run) => run.p99))} ms; ${refused} refused in both of ${claimable.length} claimable)
  claims ratio      ${ratio.toFixed(2)}   target ≥ 0.8  ${verdict(ratio >= 0.8)}   (per pair: ${service.map((run, i) => (run.perSecond / bare[i]!.perSecond).toFixed(2)).join(", ")})`);
    }
    if (only !== "campaigns" && only !== "claims") {
      // Claims in a game with one webhook endpoint against claims in a game with none (every claim
      // writes its outbox row either way: the difference is what delivering costs the claims, sharing
      // the CPU and the database), in alternating runs, so a load that comes and goes on the machine
      // (and the tables growing) weigh on both alike. The receiver and the load generator run on the same cores.
      const receiver = start(process.execPath, ["--import", "tsx", "bench/offers-api/receiver.ts"], { RECEIVER_PORT: String(RECEIVER_PORT) });
      children.push(receiver);
      const receiverUrl = `http://127.0.0.1:${RECEIVER_PORT}/`;
      await waitForHealthy(receiverUrl);
      const receivedCount = async () => ((await (await fetch(`${receiverUrl}count`)).json()) as { received: number }).received;
      const receiverState = async () => (await fetch(receiverUrl)).json() as Promise<{ received: Array<{ grantedAt: number; at: number }>; duplicates: number }>;
      const created = await fetch(`http://127.0.0.1:${SERVICE_PORT}/v1/webhooks/endpoints`, {
        method: "POST",
        headers: pools.hooks.headers,
        body: JSON.stringify({ url: `http://127.0.0.1:${RECEIVER_PORT}/rewards` }),
      });
      if (!created.ok) throw new Error(`endpoint not created: ${created.status} ${await created.text()}`);
      await claimRun(3); // warm-up
      const off: number[] = [];
      const on: number[] = [];
      let claimedOn = 0;
      // CPU ms of each process over the runs, and the claims answered: where delivering costs.
      // postgres: the backends of the bench's database only (other work on a shared server is not
      // counted, nor are the server's background processes); server: every postgres process.
      const benchDatabase = new URL(dbUrl).pathname.slice(1);
      const spent = { off: { claims: 0, service: 0, postgres: 0, server: 0, receiver: 0 }, on: { claims: 0, service: 0, postgres: 0, server: 0, receiver: 0 } };
      const measured = async (into: (typeof spent)["off"], work: () => Promise<number>) => {
        const service = processCpuMs(servicePid);
        const receiverCpu = processCpuMs(receiver.pid);
        const postgresUsed = postgresCpuMeter(benchDatabase);
        const serverUsed = postgresCpuMeter();
        into.claims += await work();
        into.service += processCpuMs(servicePid) - service;
        into.receiver += processCpuMs(receiver.pid) - receiverCpu;
        into.postgres += postgresUsed();
        into.server += serverUsed();
      };
      for (let pair = 0; pair < DELIVERY_PAIRS; pair++) {
        await measured(spent.off, async () => {
          const run = await claimRun(RUN_SECONDS);
          off.push(run.perSecond);
          return run.claimed;
        });
        // The "with" side counts until the run's deliveries have arrived (they must, before the next
        // run without, or they would load it), so its CPU is the claims' and their deliveries'.
        await measured(spent.on, async () => {
          const run = await claimRun(RUN_SECONDS, pools.hooks);
          on.push(run.perSecond);
          claimedOn += run.claimed;
          const deadline = Date.now() + 60_000;
          while ((await receivedCount()) < claimedOn && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
          return run.claimed;
        });
      }
      const perClaim = (side: (typeof spent)["off"]) =>
        (["service", "postgres", "server", "receiver"] as const).map((key) => `${key} ${((side[key] * 1000) / side.claims).toFixed(0)} µs`).join(", ");
      const state = await receiverState();
      const latencies = state.received.map((r) => r.at - r.grantedAt).sort((a, b) => a - b);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const ratio = mean(on) / mean(off);
      const p50 = percentile(latencies, 50);
      const p99 = percentile(latencies, 99);
      const usPerClaim = (side: (typeof spent)["off"], key: "service" | "postgres" | "server" | "receiver") => (side[key] * 1000) / side.claims;
      results
        .record("delivery.rate_without_endpoint", mean(off), "claims/s")
        .record("delivery.rate_with_endpoint", mean(on), "claims/s")
        .record("delivery.ratio", ratio, "× without", { text: ">= 0.9", met: ratio >= 0.9 })
        .record("delivery.cpu_per_claim_service_without", usPerClaim(spent.off, "service"), "µs")
        .record("delivery.cpu_per_claim_service_with", usPerClaim(spent.on, "service"), "µs")
        .record("delivery.cpu_per_claim_postgres_without", usPerClaim(spent.off, "postgres"), "µs")
        .record("delivery.cpu_per_claim_postgres_with", usPerClaim(spent.on, "postgres"), "µs")
        .record("delivery.cpu_per_claim_postgres_server_without", usPerClaim(spent.off, "server"), "µs")
        .record("delivery.cpu_per_claim_postgres_server_with", usPerClaim(spent.on, "server"), "µs")
        .record("delivery.cpu_per_claim_receiver", usPerClaim(spent.on, "receiver"), "µs")
        .record("delivery.latency_p50", p50, "ms")
        .record("delivery.latency_p99", p99, "ms", { text: "< 1000, every claim delivered", met: p99 < 1_000 && state.received.length >= claimedOn });
      console.log(`
reward delivery (${DELIVERY_PAIRS} × ${RUN_SECONDS} s of claims in a game without a webhook endpoint, then in one with an endpoint; the receiver on loopback)
  claims, no endpoint    ${mean(off).toFixed(0)}/s   (runs: ${off.map((x) => x.toFixed(0)).join(", ")})
  claims, one endpoint   ${mean(on).toFixed(0)}/s   (runs: ${on.map((x) => x.toFixed(0)).join(", ")})   ratio ${ratio.toFixed(2)}   target ≥ 0.9  ${verdict(ratio >= 0.9)}
  CPU per claim          without: ${perClaim(spent.off)}; with: ${perClaim(spent.on)}
  delivery latency       p50 ${p50} ms, p99 ${p99} ms from claim to receipt (${state.received.length} delivered of ${claimedOn} claims answered, ${state.duplicates} twice)   target p99 < 1,000 ms  ${verdict(p99 < 1_000 && state.received.length >= claimedOn)}`);
    }
    results.save();
  } finally {
    await run.finish();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
