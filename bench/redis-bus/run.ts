/**
 * How far one Redis goes as the event bus (lib/events' RedisEventBus, as the offers instances use it),
 * on a throwaway redis-server:
 *   - steady: BENCH_STREAMS player channels (default 40,000) held by 3 subscriber processes (the
 *     instances holding the streams), and 2 publisher processes sending an offer-sized message to
 *     random players for BENCH_SECONDS (default 10), BENCH_IN_FLIGHT publishes in flight each (64). Prints publishes/s,
 *     deliveries/s and Redis CPU per publish, and from it what one Redis core would carry;
 *   - failover burst: a fresh process takes over BENCH_FAILOVER_STREAMS streams (default 18,000, the
 *     most one instance holds here) as a stream open does it: SUBSCRIBE the player's channel and
 *     PUBLISH the takeover and the presence events. Prints its wall time and Redis CPU.
 * The Redis figure is CPU per operation, not the rate reached here: the clients share the 2 cores.
 *
 *   npx tsx bench/redis-bus/run.ts
 *
 * The figures are appended to bench/results/redis-bus.tsv.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { RedisEventBus } from "../../lib/events";
import { startThrowawayRedis } from "../../test-support/throwaway";
import { verdict } from "../lib/common";
import { BenchResults } from "../lib/results";

const STREAMS = Number(process.env.BENCH_STREAMS ?? 40_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const FAILOVER_STREAMS = Number(process.env.BENCH_FAILOVER_STREAMS ?? 18_000);
const SUBSCRIBERS = 3;
const PUBLISHERS = 2;
/** Publishes in flight per publisher process: 64 keeps Redis busy; 1 shows the cost of an unbatched command. */
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 64);
/** The capacity the scaling plan (docs/operations/scaling.md) counts on for one Redis core. */
const TARGET_PER_CORE = 100_000;
const PREFIX = "bench-bus:";
// An offer_surfaced event as a stream carries it, about 300 bytes.
const MESSAGE = JSON.stringify({
  type: "offer_surfaced",
  seq: 123456,
  offer: { instanceId: "0f8fad5b-d9cb-469f-a165-70867728950e", offerId: "weekend-bundle", status: "claimable", rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 250 }], expiresAt: "2026-11-28T00:00:00.000Z" },
});
const channelOf = (n: number) => `player:bench-game:${n}`;

type Report = { ready?: number; delivered?: number; published?: number; burstMs?: number };

async function subscriberRole(index: number, url: string) {
  const bus = new RedisEventBus({ url, prefix: PREFIX });
  await bus.ready();
  let delivered = 0;
  const started = performance.now();
  const subscriptions: Promise<unknown>[] = [];
  for (let n = index; n < STREAMS; n += SUBSCRIBERS) subscriptions.push(bus.subscribe(channelOf(n), () => (delivered += 1)));
  await Promise.all(subscriptions);
  process.send!({ ready: performance.now() - started } satisfies Report);
  process.on("message", (ask: string) => {
    if (ask === "count") process.send!({ delivered } satisfies Report);
    if (ask === "stop") void bus.close().then(() => process.exit(0));
  });
}

async function publisherRole(url: string) {
  const bus = new RedisEventBus({ url, prefix: PREFIX });
  await bus.ready();
  let published = 0;
  const until = performance.now() + SECONDS * 1000;
  const lane = async () => {
    while (performance.now() < until) {
      await bus.publish(channelOf(Math.floor(Math.random() * STREAMS)), MESSAGE);
      published += 1;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  process.send!({ published } satisfies Report);
  await bus.close();
  process.exit(0);
}

async function failoverRole(url: string) {
  const bus = new RedisEventBus({ url, prefix: PREFIX });
  await bus.ready();
  const started = performance.now();
  // Streams reopen together after a failover: each subscribes, then announces the takeover and its presence.
  const opens: Promise<unknown>[] = [];
  for (let n = 0; n < FAILOVER_STREAMS; n++) {
    const channel = channelOf(STREAMS + n);
    opens.push(bus.subscribe(channel, () => {}).then(() => Promise.all([bus.publish(channel, '{"type":"takeover"}'), bus.publish(`presence:${n}`, '{"type":"presence"}')])));
  }
  await Promise.all(opens);
  process.send!({ burstMs: performance.now() - started } satisfies Report);
  await bus.close();
  process.exit(0);
}

function child(role: string, ...args: string[]): ChildProcess {
  return fork(fileURLToPath(import.meta.url), [role, ...args], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
}

const next = (proc: ChildProcess, key: keyof Report) =>
  new Promise<number>((resolve, reject) => {
    const onMessage = (report: Report) => {
      if (report[key] === undefined) return;
      proc.off("message", onMessage);
      resolve(report[key]!);
    };
    proc.on("message", onMessage);
    proc.once("exit", (code) => reject(new Error(`${key}: child exited with ${code}`)));
  });

async function main() {
  const redis = await startThrowawayRedis();
  const admin = new Redis(redis.url);
  const children: ChildProcess[] = [];
  const watchdog = setTimeout(() => {
    console.error("redis bus bench: over 5 minutes, stopping");
    for (const c of children) c.kill("SIGKILL");
    void redis.destroy().then(() => process.exit(1));
  }, 300_000);
  const redisCpuSeconds = async () => {
    const info = await admin.info("cpu");
    const read = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, "m").exec(info)?.[1] ?? 0);
    return read("used_cpu_sys") + read("used_cpu_user");
  };
  try {
    const subscribers = Array.from({ length: SUBSCRIBERS }, (_, i) => child("subscriber", String(i), redis.url));
    children.push(...subscribers);
    const readyMs = await Promise.all(subscribers.map((s) => next(s, "ready")));

    const cpuBefore = await redisCpuSeconds();
    const publishers = Array.from({ length: PUBLISHERS }, () => child("publisher", redis.url));
    children.push(...publishers);
    const published = (await Promise.all(publishers.map((p) => next(p, "published")))).reduce((a, b) => a + b, 0);
    const cpuSteady = (await redisCpuSeconds()) - cpuBefore;
    await new Promise((r) => setTimeout(r, 500)); // the last messages reach the subscribers
    const delivered = (
      await Promise.all(
        subscribers.map((s) => {
          const count = next(s, "delivered");
          s.send("count");
          return count;
        }),
      )
    ).reduce((a, b) => a + b, 0);
    const perPublishUs = (cpuSteady / published) * 1e6;
    const perCore = 1e6 / perPublishUs;

    const cpuBeforeBurst = await redisCpuSeconds();
    const failover = child("failover", redis.url);
    children.push(failover);
    const burstMs = await next(failover, "burstMs");
    const cpuBurst = (await redisCpuSeconds()) - cpuBeforeBurst;

    console.log(`
redis event bus (RedisEventBus on a throwaway redis-server; ${SUBSCRIBERS} subscriber and ${PUBLISHERS} publisher processes on the same 2 cores)
  channels held           ${STREAMS} (subscribed in ${Math.max(...readyMs).toFixed(0)} ms, ${SUBSCRIBERS} processes at once)
  publishes               ${(published / SECONDS).toFixed(0)}/s for ${SECONDS} s, ${IN_FLIGHT} in flight per publisher; ${delivered} of ${published} delivered
  Redis CPU per publish   ${perPublishUs.toFixed(1)} µs (delivery to the subscriber included)
  one Redis core          ≈ ${Math.round(perCore).toLocaleString("en")} publishes/s   target ≥ ${TARGET_PER_CORE.toLocaleString("en")}  ${verdict(perCore >= TARGET_PER_CORE)}
  failover burst          ${FAILOVER_STREAMS} streams taken over (SUBSCRIBE + 2 PUBLISH each) in ${burstMs.toFixed(0)} ms, ${(cpuBurst * 1000).toFixed(0)} ms of Redis CPU`);
    new BenchResults("redis-bus", { streams: STREAMS, seconds: SECONDS, in_flight: IN_FLIGHT, failover_streams: FAILOVER_STREAMS })
      .record("steady.publishes_per_second", published / SECONDS, "publishes/s")
      .record("steady.delivered_share", delivered / published, "of published")
      .record("steady.redis_cpu_per_publish", perPublishUs, "µs")
      .record("steady.publishes_per_redis_core", perCore, "publishes/s", { text: `>= ${TARGET_PER_CORE}`, met: perCore >= TARGET_PER_CORE })
      .record("failover.burst_wall", burstMs, "ms")
      .record("failover.burst_redis_cpu", cpuBurst * 1000, "ms")
      .save();
    for (const s of subscribers) s.send("stop");
  } finally {
    clearTimeout(watchdog);
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    admin.disconnect();
    await redis.destroy();
  }
}

const [role, ...args] = process.argv.slice(2);
if (role === "subscriber") await subscriberRole(Number(args[0]), args[1]!);
else if (role === "publisher") await publisherRole(args[0]!);
else if (role === "failover") await failoverRole(args[0]!);
else await main();
