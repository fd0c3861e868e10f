/**
 * What one delivered webhook costs, apart from the claims: reward events are committed straight into
 * the outbox at a steady rate (as claims would commit them, a few per transaction), one webhook
 * endpoint (a receiver in a process of its own) takes them, and the service (the built
 * dist/offers/main.mjs) fans them out, sends and records them. CPU of the service and of the
 * PostgreSQL backends of its database (the inserting connection's left out), from process counters,
 * from the first insert until every event has arrived, less what the same service spends idle over as long;
 * divided by the events delivered. CPU counters stay meaningful on a shared machine, where a rate would not.
 *
 *   npm run build:offers && npx tsx bench/offers-api/delivery-cost.ts
 *   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test): the server to create a scratch database on.
 *   BENCH_DELIVERY_RATE (default 500): events committed per second; BENCH_DELIVERY_SECONDS (default 20, after 5 s of
 *     warm-up, unmeasured).
 *   BENCH_DELIVERY_HISTORY (default 0): reward events already in the outbox, fanned out before the service starts
 *     (a service that has run a while keeps its ledger: what a round costs must not grow with it).
 *   BENCH_DELIVERY_STATEMENTS=1: runs on a PostgreSQL server of its own with pg_stat_statements (fsync off, so its
 *     totals are not comparable with a run on the shared server) and adds the service's statements one by one:
 *     calls, planning and execution time per call and per delivered event.
 *   BENCH_SERVICE_NODE_ARGS: node flags of the service (e.g. --cpu-prof).
 *
 * The figures are appended to bench/results/offers-api-delivery-cost.tsv.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openOffersDatabase } from "../../lib/offers/db";
import { WebhookEndpoints } from "../../lib/offers/delivery/endpoints";
import { FANOUT_CURSOR } from "../../lib/offers/delivery/feed";
import { MIN_ROUND_MS } from "../../lib/offers/delivery/rounds";
import { createSender } from "../../lib/offers/delivery/sender";
import { GameDirectory } from "../../lib/offers/games";
import { SecretBox } from "../../lib/offers/secret-box";
import { percentile, postgresCpuMeter, processCpuMs, startBenchRun, waitForHealthy } from "../lib/common";
import { BenchResults } from "../lib/results";
import { startThrowawayPostgres, type ThrowawayServer } from "../../test-support/throwaway";

/**
 * The service's statements by what they do (the first words of their text); the benchmark's own inserts are left out.
 * Only top-level statements are tracked: a foreign-key check is inside the insert that fired it.
 */
const STATEMENT_KINDS: Array<[kind: string, text: RegExp]> = [
  ["fan_out", /^\s*with cursor as/],
  ["outcomes", /^\s*with outcome as/],
  ["lease", /^\s*with busy as/],
  ["renew", /^\s*update offers_webhook_deliveries d set leased_until/],
  ["release", /^\s*update "offers_webhook_deliveries" set "lease_token"/],
];
const BENCH_OWN = /insert into offers_reward_events|pg_stat_statements|pg_backend_pid|^\s*(begin|commit)\s*$/i;

/** What each kind of the service's statements took, in one database, since the last reset. */
async function statementTimes(client: pg.Client): Promise<Map<string, StatementTime>> {
  const { rows } = await client.query<{ query: string; calls: string; plans: string; plan_ms: number; exec_ms: number }>(
    `select query, calls, plans, total_plan_time as plan_ms, total_exec_time as exec_ms from pg_stat_statements s
     join pg_database d on d.oid = s.dbid where d.datname = current_database()`,
  );
  const kinds = new Map<string, StatementTime>();
  for (const row of rows) {
    if (BENCH_OWN.test(row.query)) continue;
    const kind = STATEMENT_KINDS.find(([, text]) => text.test(row.query))?.[0] ?? "other";
    const sum = kinds.get(kind) ?? { calls: 0, plans: 0, ms: 0, planMs: 0 };
    kinds.set(kind, {
      calls: sum.calls + Number(row.calls),
      plans: sum.plans + Number(row.plans),
      ms: sum.ms + row.plan_ms + row.exec_ms,
      planMs: sum.planMs + row.plan_ms,
    });
  }
  return kinds;
}

/** A kind of statement's totals: its calls, the times it was planned (fewer once a named statement keeps a generic plan), its time and the planning's share. */
interface StatementTime {
  calls: number;
  plans: number;
  ms: number;
  planMs: number;
}

const RATE = Number(process.env.BENCH_DELIVERY_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_DELIVERY_SECONDS ?? 20);
const HISTORY = Number(process.env.BENCH_DELIVERY_HISTORY ?? 0);
const STATEMENTS = process.env.BENCH_DELIVERY_STATEMENTS === "1";
const WARMUP_SECONDS = 5;
/** Transactions per second that commit the events (each commits RATE / COMMITS_PER_SECOND of them). */
const COMMITS_PER_SECOND = 100;
const GAME = "bench-delivery-game";
const SECRET_KEY = randomBytes(32).toString("hex");
const SERVICE_PORT = 4900 + Math.floor(Math.random() * 50);
const RECEIVER_PORT = SERVICE_PORT + 50;

function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(command, args, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  let server: ThrowawayServer | undefined;
  if (STATEMENTS) {
    server = await startThrowawayPostgres({ shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track_planning": "on" });
    process.env.BENCH_DATABASE_URL = server.url;
  }
  try {
    await measure();
  } finally {
    await server?.destroy();
  }
}

async function measure() {
  const run = await startBenchRun("bench_delivery", 300_000);
  const database = new URL(run.dbUrl).pathname.slice(1);
  const results = new BenchResults("offers-api-delivery-cost", { rate: RATE, seconds: SECONDS });
  try {
    const handle = await openOffersDatabase({ url: run.dbUrl, poolSize: 2 });
    const box = new SecretBox(SECRET_KEY);
    await new GameDirectory(handle.db, box).createGame({ gameId: GAME, name: "Delivery cost", clientId: "bench-delivery-client", apiKey: `bench-delivery-key-${randomBytes(8).toString("hex")}` });
    const receiver = start(process.execPath, ["--import", "tsx", "bench/offers-api/receiver.ts"], { RECEIVER_PORT: String(RECEIVER_PORT) });
    run.children.push(receiver);
    const receiverUrl = `http://127.0.0.1:${RECEIVER_PORT}/`;
    await waitForHealthy(receiverUrl);
    const endpoints = new WebhookEndpoints(handle.db, box, { now: () => new Date() }, { allowPrivate: true });
    const { secret } = await endpoints.create(GAME, { url: `${receiverUrl}rewards` });
    // Disabled, so the service never sends to it: its rows are the floor's (see floors()).
    const { endpointId: floorEndpoint } = await endpoints.create(GAME, { url: `${receiverUrl}floor`, enabled: false });
    if (HISTORY > 0) {
      // Events of the past, already fanned out: the cursor stands after the last of them.
      await handle.db.execute(sql`
        insert into offers_reward_events (game_id, player_id, source_kind, source_id, offer_id, rewards, source, occurred_at)
        select ${GAME}, 'past-player-' || i, 'offer', 'past-instance-' || i, 'bench-offer',
          '[{"kind":"coins","rewardId":"coins","name":"Coins","amount":100}]'::jsonb, 'server', now()
        from generate_series(1, ${HISTORY}::int) i`);
      await handle.db.execute(sql`
        insert into offers_settings (name, value, updated_at)
        select ${FANOUT_CURSOR}, xid::text || ':' || id::text, now() from offers_reward_events order by xid desc, id desc limit 1`);
      await handle.db.execute(sql`analyze offers_reward_events`);
    }
    await handle.close();

    const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? "").split(" ").filter(Boolean);
    const service = start("node", [...nodeArgs, "dist/offers/main.mjs"], {
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      OFFERS_PORT: String(SERVICE_PORT),
      OFFERS_DATABASE_URL: run.dbUrl,
      OFFERS_SECRET_KEY: SECRET_KEY,
      OFFERS_ADMIN_TOKEN: randomBytes(24).toString("hex"),
      OFFERS_DEMO_DATA: "off",
      REDIS_URL: "",
      OFFERS_WEBHOOK_ALLOW_PRIVATE: "1",
      // No claim here tells the worker of an event: it polls as often as claims would wake it (MIN_ROUND_MS).
      OFFERS_WEBHOOK_POLL_MS: "25",
    });
    run.children.push(service);
    await waitForHealthy(`http://127.0.0.1:${SERVICE_PORT}/health`);
    const received = async () => ((await (await fetch(`${receiverUrl}count`)).json()) as { received: number }).received;

    const inserter = new pg.Client({ connectionString: run.dbUrl });
    await inserter.connect();
    const inserterPid = Number((await inserter.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid);
    const backendsCpu = () => {
      const all = postgresCpuMeter(database);
      const own = processCpuMs(inserterPid);
      return () => all() - (processCpuMs(inserterPid) - own);
    };

    // Warm-up, unmeasured: the first deliveries compile the hot code and open the connections.
    const commit = (from: number, count: number) =>
      inserter.query(
        `insert into offers_reward_events (game_id, player_id, source_kind, source_id, offer_id, rewards, source, occurred_at)
         select $1, 'player-' || ($2::int + i), 'offer', 'instance-' || ($2::int + i), 'bench-offer',
           '[{"kind":"coins","rewardId":"coins","name":"Coins","amount":100}]'::jsonb, 'server', now()
         from generate_series(1, $3::int) i`,
        [GAME, from, count],
      );
    const perCommit = Math.max(1, Math.round(RATE / COMMITS_PER_SECOND));
    const steady = async (first: number, events: number) => {
      const started = Date.now();
      for (let sent = 0, tick = 0; sent < events; tick++) {
        const count = Math.min(perCommit, events - sent);
        await commit(first + sent, count);
        sent += count;
        const wait = started + ((tick + 1) * 1_000) / COMMITS_PER_SECOND - Date.now();
        if (wait > 0) await sleep(wait);
      }
    };
    const warmup = RATE * WARMUP_SECONDS;
    await steady(0, warmup);
    const warmDeadline = Date.now() + 60_000;
    while ((await received()) < warmup && Date.now() < warmDeadline) await sleep(50);

    // What the service and its backends spend idle (the worker polling), over as long as the run.
    await sleep(2_000);
    const idleStart = Date.now();
    const idleService = processCpuMs(service.pid);
    const idleBackends = backendsCpu();
    await sleep(SECONDS * 1_000);
    const idleMs = Date.now() - idleStart;
    const idle = { service: processCpuMs(service.pid) - idleService, postgres: idleBackends() };

    if (STATEMENTS) {
      await inserter.query("create extension if not exists pg_stat_statements");
      await inserter.query("select pg_stat_statements_reset()");
    }
    const events = RATE * SECONDS;
    const started = Date.now();
    const serviceCpu = processCpuMs(service.pid);
    const backends = backendsCpu();
    const receiverCpu = processCpuMs(receiver.pid);
    await steady(warmup, events);
    const deadline = Date.now() + 120_000;
    while ((await received()) < warmup + events && Date.now() < deadline) await sleep(50);
    const ms = Date.now() - started;
    const delivered = (await received()) - warmup;
    const spent = {
      service: processCpuMs(service.pid) - serviceCpu - (idle.service * ms) / idleMs,
      postgres: backends() - (idle.postgres * ms) / idleMs,
      receiver: processCpuMs(receiver.pid) - receiverCpu,
    };
    // From each event's commit (its grantedAt, the transaction's now()) to its arrival at the receiver: what the
    // batching of rounds costs in latency. The measured events are the last to arrive.
    const arrivals = ((await (await fetch(receiverUrl)).json()) as { received: Array<{ grantedAt: number; at: number }> }).received;
    const latencies = arrivals.slice(warmup).map((r) => r.at - r.grantedAt).sort((a, b) => a - b);
    const statements = STATEMENTS ? await statementTimes(inserter) : undefined;
    const floor = await floors(inserter, inserterPid, floorEndpoint, receiverUrl, secret, warmup + events);
    await inserter.end();
    const us = (cpuMs: number) => (cpuMs * 1000) / delivered;
    results
      .record("delivery_cost.service_cpu_per_event", us(spent.service), "µs")
      .record("delivery_cost.postgres_cpu_per_event", us(spent.postgres), "µs")
      .record("delivery_cost.total_cpu_per_event", us(spent.service + spent.postgres), "µs", { text: "<= 120", met: us(spent.service + spent.postgres) <= 120 })
      .record("delivery_cost.receiver_cpu_per_event", us(spent.receiver), "µs")
      .record("delivery_cost.latency_p50", percentile(latencies, 50), "ms")
      .record("delivery_cost.latency_p99", percentile(latencies, 99), "ms")
      .record("delivery_cost.floor.sender_cpu_per_event", floor.senderUs, "µs")
      .record("delivery_cost.floor.row_insert_postgres_cpu_per_event", floor.rowUs, "µs")
      .record("delivery_cost.idle_cpu_per_second", ((idle.service + idle.postgres) * 1000) / idleMs, "ms/s");
    console.log(`delivery cost: ${delivered} of ${events} events delivered in ${(ms / 1000).toFixed(1)} s (${RATE}/s committed, ${perCommit} per commit, after ${warmup} unmeasured)
  per delivered event: service ${us(spent.service).toFixed(0)} µs + PostgreSQL ${us(spent.postgres).toFixed(0)} µs = ${us(spent.service + spent.postgres).toFixed(0)} µs of CPU (target ≤ 120); receiver ${us(spent.receiver).toFixed(0)} µs
  from commit to receipt: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms
  idle, subtracted: service ${((idle.service * 1000) / idleMs).toFixed(1)} ms/s, PostgreSQL ${((idle.postgres * 1000) / idleMs).toFixed(1)} ms/s
  floor of what every delivery needs, apart: signing and sending it ${floor.senderUs.toFixed(0)} µs + its one row ${floor.rowUs.toFixed(0)} µs = ${(floor.senderUs + floor.rowUs).toFixed(0)} µs`);
    if (statements) {
      console.log("  PostgreSQL time by statement (planning and execution), per delivered event:");
      for (const [kind, { calls, plans, ms, planMs }] of [...statements].sort((a, b) => b[1].ms - a[1].ms)) {
        results.record(`delivery_cost.statement.${kind}_per_event`, us(ms), "µs");
        results.record(`delivery_cost.statement.${kind}_planning_per_event`, us(planMs), "µs");
        const each = (total: number) => ((total * 1000) / Math.max(calls, 1)).toFixed(0);
        console.log(
          `    ${kind.padEnd(20)} ${us(ms).toFixed(1).padStart(6)} µs, planning ${us(planMs).toFixed(1)}  (${calls} calls, ${plans} planned; ${each(ms)} µs each, ${each(planMs)} of it planning)`,
        );
      }
    }
    results.save();
  } finally {
    await run.finish();
  }
}

/**
 * The floor's round: what MIN_ROUND_MS of the committed rate holds (12 at 500/s, as every recorded floor was measured).
 * Rounds under a steady flow now take ROUND_BATCH_MS, twice as many: the floor per event only falls with them.
 */
const PER_ROUND = Math.max(1, Math.round((RATE * MIN_ROUND_MS) / 1_000));
const FLOOR_EVENTS = 10_000;

/**
 * What every delivery needs at the least, each measured alone after the run, in rounds of PER_ROUND:
 * - the sender (lib/offers/delivery/sender: sign, POST on a kept-alive connection, read the answer),
 *   run in this process against the same receiver: this process's CPU per message;
 * - one row per delivery, written once with its outcome (a multi-row insert into the delivery table, all
 *   of its indexes, the endpoint's foreign key): the inserting backend's CPU per row.
 * The service's figures above, less these, are what fan-out, leases, outcomes and the worker add.
 */
async function floors(inserter: pg.Client, inserterPid: number, endpointId: string, receiverUrl: string, secret: string, events: number) {
  const sender = createSender({ policy: { allowPrivate: true }, timeoutMs: 10_000 });
  const body = JSON.stringify({
    type: "reward.granted",
    timestamp: new Date().toISOString(),
    data: { eventId: randomUUID(), gameId: GAME, playerId: "player-0", rewards: [{ kind: "coins", rewardId: "coins", name: "Coins", amount: 100 }], grantedAt: new Date().toISOString() },
  });
  const sendRound = (first: number) =>
    Promise.all(Array.from({ length: PER_ROUND }, (_, i) => sender.send(`${receiverUrl}floor`, [secret], { id: `floor_${first + i}`, body, timestamp: new Date() })));
  // Warm-up, unmeasured: the sender's code compiled, its connections open.
  for (let sent = 0; sent < 3_000; sent += PER_ROUND) await sendRound(-1_000_000 + sent);
  const cpu = process.cpuUsage();
  let sent = 0;
  for (; sent < FLOOR_EVENTS; sent += PER_ROUND) await sendRound(sent);
  const used = process.cpuUsage(cpu);
  sender.close();
  const senderUs = (used.user + used.system) / sent;

  // The run's events, each given a second delivery (to the disabled endpoint).
  const ids = (await inserter.query<{ id: string }>("select id from offers_reward_events order by id desc limit $1", [Math.min(FLOOR_EVENTS, events)])).rows.map((r) => r.id);
  const insertRound = (round: string[]) =>
    inserter.query(
      `insert into offers_webhook_deliveries
         (endpoint_id, game_id, message_id, event_type, reward_event_id, status, tries, attempts, last_attempt_at, last_status_code, last_latency_ms, attempt_log, event_at, delivered_at, created_at, updated_at)
       select $1, e.game_id, e.event_id, e.type, e.id, 'delivered', 1, 1, now(), 200, 1, jsonb_build_array(jsonb_build_object('at', now(), 'statusCode', 200, 'error', null, 'latencyMs', 1)), e.occurred_at, now(), now(), now()
       from offers_reward_events e where e.id = any($2::bigint[])`,
      [endpointId, round],
    );
  const before = processCpuMs(inserterPid);
  let inserted = 0;
  for (; inserted < ids.length; inserted += PER_ROUND) await insertRound(ids.slice(inserted, inserted + PER_ROUND));
  const rowUs = ((processCpuMs(inserterPid) - before) * 1000) / ids.length;
  return { senderUs, rowUs };
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
