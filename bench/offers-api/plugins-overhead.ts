/**
 * What each cross-cutting plugin of the offers service adds to every request, in CPU time of the
 * process: a Fastify app built as ../../lib/offers/app.ts builds it (logger, request ids, security
 * headers, CORS, the input boundary, the error handler, the rate limiter, the request metrics)
 * answering a trivial game client route, against the same app without one of them, through inject()
 * (no sockets), in alternated rounds so that the machine's load weighs on all alike. The rate limiter sees an
 * authenticated player with an unlimited budget (the default), as on the campaigns fetch.
 *
 *   npx tsx bench/offers-api/plugins-overhead.ts
 *   BENCH_ROUNDS (default 9), BENCH_REQUESTS (default 20,000): alternated rounds, requests per round; the least round counts.
 *
 * Target: each plugin costs under 5 µs per request (a campaigns fetch costs about 120 µs of the
 * service's CPU on a 2-core host). The figures are appended to bench/results/offers-api-plugins-overhead.tsv.
 */
import { randomUUID } from "node:crypto";
import Fastify from "fastify";
import { pino } from "pino";
import { z } from "zod";
import { OffersLogController } from "../../lib/offers/http/log-controller";
import { corsPlugin } from "../../lib/offers/http/plugins/cors";
import { errorsPlugin, frameworkErrors } from "../../lib/offers/http/plugins/errors";
import { inputPlugin } from "../../lib/offers/http/plugins/input";
import { metricsPlugin } from "../../lib/offers/http/plugins/metrics";
import { rateLimitPlugin } from "../../lib/offers/http/plugins/rate-limit";
import { securityHeadersPlugin } from "../../lib/offers/http/plugins/security-headers";
import { errorResponses } from "../../lib/offers/http/route-docs";
import type { OffersDatabase } from "../../lib/offers/db";
import { RateLimitSettings } from "../../lib/offers/rate-limits";
import { BenchResults } from "../lib/results";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const TARGET_US = 5;

const PARTS = ["logger", "request ids", "security headers", "CORS", "error handler", "rate limiter", "metrics"] as const;
type Part = (typeof PARTS)[number];

/** Budgets as the service keeps them once cached; no database is asked. */
class CachedBudgets extends RateLimitSettings {
  override cachedPerMinute(): number {
    return 0;
  }
}

async function build(parts: ReadonlySet<Part>) {
  const app = Fastify({
    ...(parts.has("logger") ? { loggerInstance: pino({ level: "warn" }, pino.destination("/dev/null")), logController: new OffersLogController() } : { logger: false }),
    requestIdHeader: "x-request-id",
    ...(parts.has("request ids") ? { genReqId: () => randomUUID() } : {}),
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 600 },
    frameworkErrors,
  });
  if (parts.has("security headers")) await app.register(securityHeadersPlugin);
  if (parts.has("CORS")) await app.register(corsPlugin, {});
  await app.register(inputPlugin, {});
  if (parts.has("error handler")) await app.register(errorsPlugin);
  if (parts.has("rate limiter")) await app.register(rateLimitPlugin, { settings: new CachedBudgets({} as OffersDatabase, { clientPerMinute: 0, serverPerMinute: 0 }) });
  if (parts.has("metrics")) await app.register(metricsPlugin, {});
  let player = 0;
  await app.register(
    async (v1) => {
      // Stands in for the JWT check (../../lib/offers/http/plugins/auth.ts), which the bare server pays too.
      v1.addHook("onRequest", (request, _reply, done) => {
        request.offersCaller = { gameId: "bench-game", playerId: `player-${++player % 10_000}`, via: "client" };
        done();
      });
      v1.post(
        "/client/player/campaigns",
        {
          schema: {
            body: z.object({ viewingCampaigns: z.boolean().optional() }).optional(),
            response: { 200: z.object({ offers: z.array(z.object({ id: z.string(), progress: z.number() })) }), ...errorResponses("game-client", { body: true }) },
          },
        },
        async () => ({ offers: [{ id: "offer-1", progress: 1 }, { id: "offer-2", progress: 2 }] }),
      );
    },
    { prefix: "/v1" },
  );
  await app.ready();
  return app;
}

type App = Awaited<ReturnType<typeof build>>;

/** CPU time of this process per request (user + system): less swayed than wall time by other processes. */
async function microsPerRequest(app: App): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) {
    const response = await app.inject({ method: "POST", url: "/v1/client/player/campaigns", payload: { viewingCampaigns: true } });
    if (response.statusCode !== 200) throw new Error(`unexpected ${response.statusCode}: ${response.body}`);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / REQUESTS;
}

const variants: Array<{ name: string; parts: Set<Part> }> = [
  { name: "all", parts: new Set(PARTS) },
  ...PARTS.map((left) => ({ name: left, parts: new Set(PARTS.filter((part) => part !== left)) })),
  { name: "none", parts: new Set<Part>() },
];
const apps = await Promise.all(variants.map((variant) => build(variant.parts)));
for (const app of apps) await microsPerRequest(app); // warm-up
const rounds = variants.map(() => [] as number[]);
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < apps.length; i++) rounds[i]!.push(await microsPerRequest(apps[i]!));
}
// The least of the rounds: what other processes add to a round only ever makes it slower.
const least = (values: number[]) => Math.min(...values);
const all = least(rounds[0]!);
console.log(`inject() of a game-client route, CPU µs per request, least of ${ROUNDS} alternated rounds × ${REQUESTS} requests`);
console.log(`  all plugins        ${all.toFixed(1)} µs   (rounds: ${rounds[0]!.map((v) => v.toFixed(1)).join(", ")})`);
const results = new BenchResults("offers-api-plugins-overhead", { rounds: ROUNDS, requests: REQUESTS }).record("all_plugins.cpu_per_request", all, "µs");
let missed = false;
variants.forEach((variant, i) => {
  if (i === 0) return;
  const cost = all - least(rounds[i]!);
  if (variant.name === "none") {
    console.log(`  all of them        ${cost.toFixed(1)} µs per request (Fastify and the input boundary alone: ${least(rounds[i]!).toFixed(1)} µs)`);
    results.record("all_of_them.cost_per_request", cost, "µs").record("fastify_and_input_alone.cpu_per_request", least(rounds[i]!), "µs");
    return;
  }
  missed ||= cost >= TARGET_US;
  results.record(`${variant.name.replaceAll(" ", "_").toLowerCase()}.cost_per_request`, cost, "µs", { text: `< ${TARGET_US}`, met: cost < TARGET_US });
  console.log(`  ${variant.name.padEnd(18)} ${cost.toFixed(1)} µs per request   target < ${TARGET_US} µs  ${cost < TARGET_US ? "ok" : "MISSED"}`);
});
results.save();
await Promise.all(apps.map((app) => app.close()));
process.exitCode = missed ? 1 : 0;
