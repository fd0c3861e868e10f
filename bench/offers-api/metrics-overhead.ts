/**
 * What the request metrics add to each offers request, measured in process and alternated so the
 * machine's load weighs on both alike, in CPU time of the process: a Fastify app answering a trivial route with and without the
 * metrics plugin (its onRequest and onResponse hooks), through inject() (no sockets).
 *
 *   npx tsx bench/offers-api/metrics-overhead.ts
 *
 * Target: the hooks cost under 5 µs per request (a campaigns fetch costs about 1 ms of CPU).
 */
import Fastify from "fastify";
import { metricsPlugin } from "../../lib/offers/http/plugins/metrics";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const ROUNDS = 5;

async function app(withMetrics: boolean) {
  const server = Fastify({ logger: false });
  if (withMetrics) await server.register(metricsPlugin, {});
  server.get("/v1/things/:id", async () => ({ ok: true }));
  await server.ready();
  return server;
}

/** CPU time of this process per request (user + system): less swayed than wall time by other processes on a shared machine. */
async function microsPerRequest(server: Awaited<ReturnType<typeof app>>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) await server.inject({ method: "GET", url: `/v1/things/${i}` });
  const used = process.cpuUsage(start);
  return (used.user + used.system) / REQUESTS;
}

const plain = await app(false);
const measured = await app(true);
await microsPerRequest(plain);
await microsPerRequest(measured);
const without: number[] = [];
const withHooks: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  without.push(await microsPerRequest(plain));
  withHooks.push(await microsPerRequest(measured));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const overhead = median(withHooks) - median(without);
console.log(`inject() of a trivial route, CPU µs per request, median of ${ROUNDS} alternated rounds × ${REQUESTS} requests`);
console.log(`  without metrics   ${median(without).toFixed(1)} µs/request   (rounds: ${without.map((v) => v.toFixed(1)).join(", ")})`);
console.log(`  with metrics      ${median(withHooks).toFixed(1)} µs/request   (rounds: ${withHooks.map((v) => v.toFixed(1)).join(", ")})`);
console.log(`  hooks cost        ${overhead.toFixed(1)} µs/request   target < 5 µs  ${overhead < 5 ? "ok" : "MISSED"}`);
await plain.close();
await measured.close();
