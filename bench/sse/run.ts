/**
 * Event-stream benchmark: N players' streams (default 40,000) held across several offers instances
 * (default 3) sharing one PostgreSQL and one Redis; one real-time offer surfaced per player, in
 * bursts, through the game-server API of an instance other than the one holding the player's
 * stream, so every delivery crosses Redis; measures delivery latency from surfacing to receipt
 * (p50, p99), memory per stream on each instance (RSS and heap over the idle process, once the streams
 * have been held a while, and 2 s after the last opened), and Redis traffic per delivered event.
 *
 *   npm run build:offers && npx tsx bench/sse/run.ts [streams] [--instances 3] [--generators 4]
 *   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test): the server to create a
 *     scratch database bench_sse_<random> on (dropped at the end);
 *   BENCH_CONCURRENCY (default 1 per instance): assignments in flight during a burst (more measure the
 *     queue in front of the database on a 2-core machine: throughput barely grows, latency does);
 *   BENCH_SERVICE_NODE_ARGS: extra node flags of the instances (e.g. --heapsnapshot-signal=SIGUSR2);
 *   BENCH_SETTLE_MS (default 45000): how long all streams are held before memory is read (it is also
 *     read 2 s after the last opened, and printed: V8 gives back later what it committed meanwhile);
 *   BENCH_ONLY=memory: open the streams and measure memory, without the bursts (while profiling);
 *   BENCH_ONLY=bare: the same against bare node:http servers (bench/sse/bare-server.mjs) instead of
 *     the offers service: what node:http costs per stream when it keeps each request and response.
 *
 * Every process here may hold at most `ulimit -Hn` open files (20,000, a hard limit that cannot be
 * raised): each instance holds streams ÷ instances, each load-generator process (a child of this
 * script, bench/sse/load-generator.ts) streams ÷ generators from its own source address 127.0.0.x,
 * so no source address runs out of ephemeral ports. The bench starts a throwaway redis-server on a
 * random port (its counters are then this bench's alone) and stops it at the end.
 *
 * Targets: every stream held, < 12 KB per stream, p99 < 100 ms. Loopback only; stops by itself. The
 * figures are appended to bench/results/sse.tsv.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { createBenchDatabase, percentile, verdict as mark, waitForHealthy as waitFor } from "../lib/common";
import { BenchResults } from "../lib/results";
import type { ConnectOrder, GeneratorReport } from "./load-generator";

// Open files: take this process's hard limit as the soft one (children inherit it); never more.
if (!process.env.BENCH_SSE_CHILD) {
  const args = process.argv.slice(2).map((a) => JSON.stringify(a)).join(" ");
  const result = spawnSync("bash", ["-c", `ulimit -n $(ulimit -Hn); exec npx tsx bench/sse/run.ts ${args}`], {
    stdio: "inherit",
    env: { ...process.env, BENCH_SSE_CHILD: "1" },
  });
  process.exit(result.status ?? 1);
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}
const positional = process.argv.slice(2).find((a, i, all) => /^\d+$/.test(a) && !all[i - 1]?.startsWith("--"));
const STREAMS = Number(positional ?? process.env.BENCH_CONNECTIONS ?? 40_000);
const INSTANCES = option("instances", 3);
const GENERATORS = option("generators", Math.max(2, Math.ceil(STREAMS / 10_000)));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? INSTANCES);
const ONLY = process.env.BENCH_ONLY;
const BURSTS = ONLY !== "memory" && ONLY !== "bare";
/**
 * How long all streams are held before memory is read again (it is also read 2 s after the last opened):
 * V8 keeps for a while the heap it committed while the connections arrived, then gives it back.
 */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 45_000);
const BURST = 500;
/** Connections a load generator opens at once. */
const CONNECT_BATCH = 250;
const BASE_PORT = 4600 + Math.floor(Math.random() * 300);
const REDIS_PORT = 21_000 + Math.floor(Math.random() * 5_000);
const GAME = "demo-game";
const API_KEY = "demo-api-key";
const CLIENT_ID = "demo-client";
const instancePort = (i: number) => BASE_PORT + i;

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
}

/** The hard open-files limit of this process (children get the same). */
function openFilesLimit(): number {
  const limits = readFileSync("/proc/self/limits", "utf8");
  return Number(/Max open files\s+\d+\s+(\d+)/.exec(limits)![1]);
}

async function api(port: number, method: string, url: string, body: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { "content-type": "application/json", "x-api-key": API_KEY, "x-client-id": CLIENT_ID },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

interface Instance {
  port: number;
  process: ChildProcess;
  dataDir: string;
}

interface Memory {
  rssKb: number;
  heapUsed: number;
  /** V8's heap as committed (what of it the RSS holds), and memory outside it that V8 knows of. */
  heapTotal: number;
  external: number;
}

/** RSS from /proc and V8's heap after a full collection (the instance runs bench/sse/memory-probe.cjs). */
async function memoryOf(instance: Instance): Promise<Memory> {
  const heap = await new Promise<NodeJS.MemoryUsage>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance on ${instance.port} did not report its memory`)), 10_000);
    instance.process.once("message", (message: { memory: NodeJS.MemoryUsage }) => {
      clearTimeout(timer);
      resolve(message.memory);
    });
    instance.process.send("memory");
  });
  return { rssKb: rssKb(instance.process.pid!), heapUsed: heap.heapUsed, heapTotal: heap.heapTotal, external: heap.external };
}

/** Redis counters of the throwaway server (INFO commandstats): PUBLISH calls and all commands processed. */
async function redisCounters(redis: Redis): Promise<{ publish: number; commands: number }> {
  const commandStats = await redis.info("commandstats");
  let commands = 0;
  let publish = 0;
  for (const [, name, calls] of commandStats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    // The bench's own INFO readings are not the service's traffic.
    if (name !== "info") commands += Number(calls);
    if (name === "publish") publish = Number(calls);
  }
  return { publish, commands };
}

function startGenerator(): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "bench/sse/load-generator.ts"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
}

function nextMessage<T extends GeneratorReport["type"]>(child: ChildProcess, type: T): Promise<Extract<GeneratorReport, { type: T }>> {
  return new Promise((resolve) => {
    const listener = (message: GeneratorReport) => {
      if (message.type !== type) return;
      child.off("message", listener);
      resolve(message as Extract<GeneratorReport, { type: T }>);
    };
    child.on("message", listener);
  });
}

async function main() {
  const limit = openFilesLimit();
  const perInstance = Math.ceil(STREAMS / INSTANCES);
  const perGenerator = Math.ceil(STREAMS / GENERATORS);
  // Room for the listening socket, database pool, Redis, logs and node's own files.
  if (perInstance > limit - 300 || perGenerator > limit - 100) {
    throw new Error(
      `${STREAMS} streams need more instances or generators: ${perInstance} per instance and ${perGenerator} per generator, ` +
        `open files limited to ${limit} per process (ulimit -Hn)`,
    );
  }
  if (INSTANCES < 1 || GENERATORS < 1 || GENERATORS > 250) throw new Error("--instances ≥ 1, 1 ≤ --generators ≤ 250");

  const instances: Instance[] = [];
  const generators: ChildProcess[] = [];
  let redisServer: ChildProcess | undefined;
  let redis: Redis | undefined;
  let database: Awaited<ReturnType<typeof createBenchDatabase>> | undefined;
  const cleanup = async () => {
    for (const g of generators) g.kill("SIGTERM");
    for (const i of instances) i.process.kill("SIGTERM");
    redis?.disconnect();
    await new Promise((r) => setTimeout(r, 1_500));
    for (const i of instances) {
      i.process.kill("SIGKILL");
      rmSync(i.dataDir, { recursive: true, force: true });
    }
    redisServer?.kill("SIGTERM");
    await database?.drop().catch(() => {});
  };
  const watchdog = setTimeout(() => {
    console.error("bench took over 20 minutes; stopping");
    void cleanup().then(() => process.exit(1));
  }, 1_200_000);
  try {
    redisServer = spawn("redis-server", ["--port", String(REDIS_PORT), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--maxclients", "1000"], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    for (let attempt = 0; !redis; attempt++) {
      const client = new Redis(`redis://127.0.0.1:${REDIS_PORT}`, { lazyConnect: true, retryStrategy: () => null });
      client.on("error", () => {});
      try {
        await client.connect();
        redis = client;
      } catch (error) {
        client.disconnect();
        if (attempt > 50) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    database = await createBenchDatabase("bench_sse");
    const dbUrl = database.url;

    const secrets = { OFFERS_SECRET_KEY: randomBytes(32).toString("hex"), OFFERS_ADMIN_TOKEN: randomBytes(24).toString("hex") };
    const startInstance = (i: number): Instance => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-sse-"));
      const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? "").split(" ").filter(Boolean);
      const entry = ONLY === "bare" ? "bench/sse/bare-server.mjs" : "dist/offers/main.mjs";
      const child = spawn("node", ["--expose-gc", "--require", "./bench/sse/memory-probe.cjs", ...nodeArgs, entry], {
        stdio: ["ignore", "ignore", "inherit", "ipc"],
        env: {
          ...process.env,
          ...secrets,
          NODE_ENV: "production",
          LOG_LEVEL: "warn",
          DATA_DIR: dataDir,
          OFFERS_PORT: String(instancePort(i)),
          // One instance seeds the demo game (its API key); the others find it in the database.
          OFFERS_DEMO_DATA: i === 0 ? "on" : "off",
          OFFERS_DATABASE_URL: dbUrl,
          REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`,
          // The bench measures streams: no webhook endpoints exist, so no worker polls for them.
          OFFERS_WEBHOOK_WORKER: "off",
          // One demo game driven far past any real game's budgets: unlimited unless set (to measure the limiter).
          OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE: process.env.OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE ?? "0",
          OFFERS_RATE_LIMIT_SERVER_PER_MINUTE: process.env.OFFERS_RATE_LIMIT_SERVER_PER_MINUTE ?? "0",
        },
      });
      const instance = { port: instancePort(i), process: child, dataDir };
      instances.push(instance);
      return instance;
    };
    // The first applies the migrations and seeds; then the others start together.
    await waitFor(`http://127.0.0.1:${startInstance(0).port}/health`);
    for (let i = 1; i < INSTANCES; i++) startInstance(i);
    await Promise.all(instances.map((i) => waitFor(`http://127.0.0.1:${i.port}/health`)));
    if (ONLY !== "bare") await api(instances[0]!.port, "PUT", "/v1/offers/definitions/bench-live", {
      name: "Flash deal",
      description: "Surfaced in real time",
      rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 100 }],
      realTime: true,
      durationSeconds: 3600,
    });

    // The idle instances settle as long as the streams will be held: V8 gives back what it committed
    // while starting, which would otherwise count against the streams.
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const before = await Promise.all(instances.map(memoryOf));

    // Player i's stream goes to instance i mod N; generator g opens the players g, g + G, g + 2G, …
    for (let g = 0; g < GENERATORS; g++) generators.push(startGenerator());
    const connectStart = Date.now();
    const connected = await Promise.all(
      generators.map((generator, g) => {
        const order: ConnectOrder = {
          type: "connect",
          localAddress: `127.0.0.${2 + g}`,
          players: [],
          gameId: GAME,
          apiKey: API_KEY,
          batch: CONNECT_BATCH,
        };
        for (let i = g; i < STREAMS; i += GENERATORS) order.players.push({ index: i, port: instancePort(i % INSTANCES) });
        const done = nextMessage(generator, "connected");
        generator.send(order);
        return done;
      }),
    );
    const connectSeconds = (Date.now() - connectStart) / 1000;
    const failed = connected.reduce((sum, c) => sum + c.failed, 0);
    if (failed > 0) console.error(`${failed} streams did not open; first error: ${connected.find((c) => c.firstError)?.firstError}`);
    await new Promise((r) => setTimeout(r, 2_000));
    const arrived = await Promise.all(instances.map(memoryOf));
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const after = await Promise.all(instances.map(memoryOf));

    // Progress of deliveries, as the generators count them.
    const received = new Map<ChildProcess, number>();
    for (const generator of generators) {
      generator.on("message", (message: GeneratorReport) => {
        if (message.type === "progress") received.set(generator, message.received);
      });
    }
    const receivedTotal = () => [...received.values()].reduce((a, b) => a + b, 0);

    // Surface one real-time offer per player, in bursts, each through an instance that does not hold
    // its stream (alternating between the others), so every delivery goes through Redis.
    const opened = connected.reduce((sum, c) => sum + c.opened, 0);
    const requestedAt = new Map<number, number>();
    const viaInstance = (i: number) => {
      const holder = i % INSTANCES;
      if (INSTANCES === 1) return holder;
      return (holder + 1 + (Math.floor(i / INSTANCES) % (INSTANCES - 1))) % INSTANCES;
    };
    const redisBefore = await redisCounters(redis);
    const surfaceStart = Date.now();
    for (let start = 0; start < (BURSTS ? STREAMS : 0); start += BURST) {
      let next = start;
      const end = Math.min(STREAMS, start + BURST);
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < end) {
            const i = next++;
            requestedAt.set(i, Date.now());
            await api(instancePort(viaInstance(i)), "POST", "/v1/player/offers/assign", { playerId: `bench-${i}`, offerId: "bench-live" });
          }
        }),
      );
    }
    const surfaceSeconds = (Date.now() - surfaceStart) / 1000;
    const deadline = Date.now() + 30_000;
    while (BURSTS && receivedTotal() < opened && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const redisAfter = await redisCounters(redis);

    const reports = await Promise.all(
      generators.map((generator) => {
        const report = nextMessage(generator, "report");
        generator.send({ type: "report" });
        return report;
      }),
    );
    const openByPort: Record<number, number> = {};
    for (const r of reports) for (const [port, n] of Object.entries(r.openByPort)) openByPort[Number(port)] = (openByPort[Number(port)] ?? 0) + n;
    const held = Object.values(openByPort).reduce((a, b) => a + b, 0);
    const closedEarly = reports.reduce((sum, r) => sum + r.closedEarly, 0);
    const deliveries = reports.flatMap((r) => r.deliveries);
    const latencies = deliveries.map(([, receivedAt, surfacedAt]) => receivedAt - surfacedAt).sort((a, b) => a - b);
    const endToEnd = deliveries.map(([i, receivedAt]) => receivedAt - requestedAt.get(i)!).sort((a, b) => a - b);

    const perInstanceLines = instances.map((instance, i) => {
      const streams = openByPort[instance.port] ?? 0;
      const rssDelta = after[i]!.rssKb - before[i]!.rssKb;
      const heapDelta = (after[i]!.heapUsed - before[i]!.heapUsed) / 1024;
      const mb = (kb: number) => (kb / 1024).toFixed(0);
      const per = (kb: number) => (streams ? (kb / streams).toFixed(1) : "–");
      return {
        streams,
        rssDelta,
        heapDelta,
        text:
          `    instance ${i + 1} (:${instance.port})  ${streams} streams; RSS ${mb(before[i]!.rssKb)} → ${mb(arrived[i]!.rssKb)} → ${mb(after[i]!.rssKb)} MB ` +
          `(none, all, held ${(SETTLE_MS / 1000).toFixed(0)} s), heap ${mb(before[i]!.heapUsed / 1024)} → ${mb(after[i]!.heapUsed / 1024)} MB; ` +
          `${per(rssDelta)} KB RSS (heap ${per(heapDelta)}) per stream (V8 committed ${mb(before[i]!.heapTotal / 1024)} → ${mb(arrived[i]!.heapTotal / 1024)} → ${mb(after[i]!.heapTotal / 1024)} MB)`,
      };
    });
    const totalStreams = perInstanceLines.reduce((a, l) => a + l.streams, 0);
    const rssPerStream = perInstanceLines.reduce((a, l) => a + l.rssDelta, 0) / Math.max(1, totalStreams);
    const heapPerStream = perInstanceLines.reduce((a, l) => a + l.heapDelta, 0) / Math.max(1, totalStreams);
    const arrivedRssPerStream = instances.reduce((a, _, i) => a + arrived[i]!.rssKb - before[i]!.rssKb, 0) / Math.max(1, totalStreams);
    const arrivedCommitted = instances.reduce((a, _, i) => a + arrived[i]!.heapTotal, 0) / 2 ** 20;
    const heldCommitted = instances.reduce((a, _, i) => a + after[i]!.heapTotal, 0) / 2 ** 20;
    const published = redisAfter.publish - redisBefore.publish;
    const commands = redisAfter.commands - redisBefore.commands;
    const delivered = latencies.length;
    const p99 = percentile(latencies, 99);
    const deliveryLines = `  offers delivered        ${delivered} / ${STREAMS} (bursts of ${BURST}, ${CONCURRENCY} assignments in flight, each through an instance not holding the stream; ${(STREAMS / surfaceSeconds).toFixed(0)}/s, ${surfaceSeconds.toFixed(1)} s)
  delivery latency p50    ${percentile(latencies, 50)} ms   (surfacing transaction → receipt)
  delivery latency p99    ${p99} ms   target < 100 ms  ${mark(p99 < 100)}
  assign request → receipt  p50 ${percentile(endToEnd, 50)} ms, p99 ${percentile(endToEnd, 99)} ms (includes the HTTP call and the transaction)
  Redis per delivered event  ${(published / Math.max(1, delivered)).toFixed(2)} PUBLISH, ${(commands / Math.max(1, delivered)).toFixed(2)} commands in all (${published} PUBLISH, ${commands} commands over the bursts)
`;
    const results = new BenchResults("sse", { streams: STREAMS, instances: INSTANCES, generators: GENERATORS, server: ONLY === "bare" ? "bare node:http" : "offers service" })
      .record("streams_held", held, "streams", { text: `= ${STREAMS}`, met: held === STREAMS })
      .record("streams_opened_in", connectSeconds, "s")
      .record("rss_per_stream_held", rssPerStream, "KB", { text: "< 12", met: rssPerStream < 12 })
      .record("heap_per_stream_held", heapPerStream, "KB")
      .record("rss_per_stream_2s_after_last_opened", arrivedRssPerStream, "KB");
    perInstanceLines.forEach((line, i) => results.record(`rss_per_stream_held_instance_${i + 1}`, line.streams ? line.rssDelta / line.streams : Number.NaN, "KB"));
    if (BURSTS) {
      results
        .record("delivery.latency_p50", percentile(latencies, 50), "ms")
        .record("delivery.latency_p99", p99, "ms", { text: "< 100", met: p99 < 100 })
        .record("delivery.assignments_per_second", STREAMS / surfaceSeconds, "assignments/s")
        .record("delivery.delivered", delivered, "offers")
        .record("redis.publish_per_delivered_event", published / Math.max(1, delivered), "PUBLISH")
        .record("redis.commands_per_delivered_event", commands / Math.max(1, delivered), "commands");
    }
    console.log(`
event stream benchmark (${ONLY === "bare" ? "bare node:http servers, not the offers service: " : ""}${INSTANCES} instances on PostgreSQL and a throwaway Redis, ${GENERATORS} load generators on 127.0.0.2–127.0.0.${1 + GENERATORS}; open files ≤ ${limit} per process)
  streams held            ${held} / ${STREAMS} (opened in ${connectSeconds.toFixed(1)} s${failed ? `, ${failed} failed to open` : ""}${closedEarly ? `, ${closedEarly} closed by the server` : ""})   target ${STREAMS} held  ${mark(held === STREAMS)}
${perInstanceLines.map((l) => l.text).join("\n")}
  memory per stream       ${rssPerStream.toFixed(1)} KB RSS (heap ${heapPerStream.toFixed(1)} KB) counting from no streams, the streams held ${(SETTLE_MS / 1000).toFixed(0)} s, over all instances   target < 12 KB  ${mark(rssPerStream < 12)}
                          ${arrivedRssPerStream.toFixed(1)} KB RSS 2 s after the last opened, before V8 gave back heap it committed while they arrived (V8 committed ${arrivedCommitted.toFixed(0)} MB then, ${heldCommitted.toFixed(0)} MB ${(SETTLE_MS / 1000).toFixed(0)} s later, all instances)
${BURSTS ? deliveryLines : ""}`);
    results.save();
  } finally {
    clearTimeout(watchdog);
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
