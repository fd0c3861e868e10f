/**
 * Deliveries sent twice when an instance dies mid-load, and how soon what it held is sent: two
 * offers instances (the built dist/offers/main.mjs) share one database and one webhook endpoint (a
 * receiver in a process of its own that answers after RECEIVER_ANSWER_AFTER_MS, so deliveries are in
 * flight); reward events are committed straight into the outbox at a steady rate; halfway, one
 * instance is killed with SIGKILL. Counted at the receiver: events received, events received more
 * than once (the same webhook-id), and the seconds from the kill until every event had arrived.
 *
 *   npm run build:offers && npx tsx bench/offers-api/delivery-kill.ts
 *   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); BENCH_DELIVERY_RATE (default 500/s),
 *   BENCH_DELIVERY_SECONDS (default 10), BENCH_RECEIVER_ANSWER_AFTER_MS (default 200).
 *
 * The figures are appended to bench/results/offers-api-delivery-kill.tsv.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openOffersDatabase } from "../../lib/offers/db";
import { WebhookEndpoints } from "../../lib/offers/delivery/endpoints";
import { GameDirectory } from "../../lib/offers/games";
import { SecretBox } from "../../lib/offers/secret-box";
import { startBenchRun, waitForHealthy } from "../lib/common";
import { BenchResults } from "../lib/results";

const RATE = Number(process.env.BENCH_DELIVERY_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_DELIVERY_SECONDS ?? 10);
const ANSWER_AFTER_MS = Number(process.env.BENCH_RECEIVER_ANSWER_AFTER_MS ?? 200);
const COMMITS_PER_SECOND = 100;
const GAME = "bench-kill-game";
const SECRET_KEY = randomBytes(32).toString("hex");
const PORT = 5000 + Math.floor(Math.random() * 50);
const RECEIVER_PORT = PORT + 60;

function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(command, args, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const run = await startBenchRun("bench_kill", 300_000);
  const results = new BenchResults("offers-api-delivery-kill", { rate: RATE, seconds: SECONDS, answer_after_ms: ANSWER_AFTER_MS });
  try {
    const handle = await openOffersDatabase({ url: run.dbUrl, poolSize: 2 });
    const box = new SecretBox(SECRET_KEY);
    await new GameDirectory(handle.db, box).createGame({ gameId: GAME, name: "Kill", clientId: "bench-kill-client", apiKey: `bench-kill-key-${randomBytes(8).toString("hex")}` });
    const receiver = start(process.execPath, ["--import", "tsx", "bench/offers-api/receiver.ts"], { RECEIVER_PORT: String(RECEIVER_PORT), RECEIVER_ANSWER_AFTER_MS: String(ANSWER_AFTER_MS) });
    run.children.push(receiver);
    const receiverUrl = `http://127.0.0.1:${RECEIVER_PORT}/`;
    await waitForHealthy(receiverUrl);
    await new WebhookEndpoints(handle.db, box, { now: () => new Date() }, { allowPrivate: true }).create(GAME, { url: `${receiverUrl}rewards` });
    await handle.close();

    const admin = randomBytes(24).toString("hex");
    const instance = (port: number) =>
      start("node", ["dist/offers/main.mjs"], {
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        OFFERS_PORT: String(port),
        OFFERS_DATABASE_URL: run.dbUrl,
        OFFERS_SECRET_KEY: SECRET_KEY,
        OFFERS_ADMIN_TOKEN: admin,
        OFFERS_DEMO_DATA: "off",
        REDIS_URL: "",
        OFFERS_WEBHOOK_ALLOW_PRIVATE: "1",
      });
    const doomed = instance(PORT);
    const survivor = instance(PORT + 1);
    run.children.push(doomed, survivor);
    await waitForHealthy(`http://127.0.0.1:${PORT}/health`);
    await waitForHealthy(`http://127.0.0.1:${PORT + 1}/health`);
    const state = async () => (await (await fetch(receiverUrl)).json()) as { received: unknown[]; duplicates: number };

    const inserter = new pg.Client({ connectionString: run.dbUrl });
    await inserter.connect();
    const events = RATE * SECONDS;
    const perCommit = Math.max(1, Math.round(RATE / COMMITS_PER_SECOND));
    const started = Date.now();
    let killedAt = 0;
    for (let sent = 0, tick = 0; sent < events; tick++) {
      const count = Math.min(perCommit, events - sent);
      await inserter.query(
        `insert into offers_reward_events (game_id, player_id, source_kind, source_id, offer_id, rewards, source, occurred_at)
         select $1, 'player-' || ($2::int + i), 'offer', 'instance-' || ($2::int + i), 'bench-offer',
           '[{"kind":"coins","rewardId":"coins","name":"Coins","amount":100}]'::jsonb, 'server', now()
         from generate_series(1, $3::int) i`,
        [GAME, sent, count],
      );
      sent += count;
      if (!killedAt && sent >= events / 2) {
        doomed.kill("SIGKILL");
        killedAt = Date.now();
      }
      const wait = started + ((tick + 1) * 1_000) / COMMITS_PER_SECOND - Date.now();
      if (wait > 0) await sleep(wait);
    }
    await inserter.end();
    // Every event arrives once the dead instance's leases have run out and the survivor has sent what it held.
    const deadline = Date.now() + 120_000;
    while ((await state()).received.length < events && Date.now() < deadline) await sleep(100);
    const final = await state();
    const secondsToAll = (Date.now() - killedAt) / 1000;
    const share = final.duplicates / Math.max(1, final.received.length);
    results
      .record("delivery_kill.events_received", final.received.length, "events")
      .record("delivery_kill.sent_twice", final.duplicates, "deliveries")
      .record("delivery_kill.sent_twice_share", share * 100, "%", { text: "<= 2", met: share <= 0.02 })
      .record("delivery_kill.seconds_kill_to_all_delivered", secondsToAll, "s");
    console.log(`kill -9 of one of two instances halfway through ${events} events (${RATE}/s, the receiver answering after ${ANSWER_AFTER_MS} ms):
  received ${final.received.length} of ${events} events; ${final.duplicates} deliveries sent twice (${(share * 100).toFixed(2)} %; target ≤ 2 %)
  every event delivered ${secondsToAll.toFixed(1)} s after the kill (the inserts ended ${((started + SECONDS * 1000 - killedAt) / 1000).toFixed(1)} s after it)`);
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
