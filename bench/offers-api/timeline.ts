/**
 * A player's timeline at the offers service: the first page (50 entries, every kind) of a player with
 * `BENCH_TIMELINE_EVENTS` (10,000) stored events — offer transitions, rewards granted, their deliveries,
 * support grants — in a game where `BENCH_OTHER_PLAYERS` (2,000) other players have 20 of each, so a read
 * that does not use the player's indexes shows. Reads the engine in process (the route adds parsing and
 * serialization of 50 entries), one at a time, `BENCH_READS` (300) times after a warm-up, and also the
 * page 20 pages deep. Prints p50 and p95 of each.
 *
 *   npx tsx bench/offers-api/timeline.ts
 *
 * Target: first page p95 < 100 ms on PostgreSQL. The figures are appended to bench/results/offers-timeline.tsv.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { openOffersDatabase } from "../../lib/offers/db";
import { GameDirectory } from "../../lib/offers/games";
import { SecretBox } from "../../lib/offers/secret-box";
import { TIMELINE_KINDS } from "../../lib/offers/contract";
import { playerTimeline } from "../../lib/offers/engine/timeline";
import { percentile, startBenchRun, verdict } from "../lib/common";
import { BenchResults } from "../lib/results";

const EVENTS = Number(process.env.BENCH_TIMELINE_EVENTS ?? 10_000);
const OTHERS = Number(process.env.BENCH_OTHER_PLAYERS ?? 2_000);
const READS = Number(process.env.BENCH_READS ?? 300);
const GAME = "bench-game";
const PLAYER = "long-lived";

async function main() {
  const run = await startBenchRun("bench_timeline", 600_000);
  const handle = await openOffersDatabase({ url: run.dbUrl, poolSize: 4 });
  const db = handle.db;
  const box = new SecretBox(randomUUID().replaceAll("-", "").repeat(2));
  await new GameDirectory(db, box).createGame({ gameId: GAME, name: "Bench", clientId: "bench-client", apiKey: `bench-key-${randomUUID()}` });
  await db.execute(sql`insert into offers_webhook_endpoints (endpoint_id, game_id, url, event_types, encrypted_secret, created_at, updated_at)
    values ('ep_bench', ${GAME}, 'https://hooks.example/bench', '["reward.granted"]', ${box.encrypt("whsec_bench")}, now(), now())`);

  // The player's 10,000: 60 % offer transitions, 20 % rewards, 15 % deliveries, 5 % support grants; then
  // 20 of each for every other player (the rows a read without the player's indexes would wade through).
  const seed = async (player: string, offers: number, rewards: number, deliveries: number, grants: number) => {
    await db.execute(sql`insert into offers_players (game_id, player_id, event_seq) values (${GAME}, ${player}, ${offers}) on conflict do nothing`);
    await db.execute(sql`
      insert into offers_instances (instance_id, game_id, player_id, offer_id, status, name, description, rewards, real_time, duration_seconds, priority, created_at, expires_at, updated_at)
      select ${player} || '-i' || g, ${GAME}, ${player}, 'offer-' || (g % 40), 'claimed', 'Offer ' || (g % 40), '', '[]', true, 3600, 0, now() - interval '1 day', now() + interval '1 day', now()
      from generate_series(1, greatest(${offers} / 5, 1)) g`);
    await db.execute(sql`
      insert into offers_events (game_id, player_id, seq, instance_id, type, from_status, to_status, cause, at)
      select ${GAME}, ${player}, g, ${player} || '-i' || (1 + (g - 1) / 5), (array['surfaced','viewed','claimable','claimed','expired'])[1 + g % 5], null, 'claimed', 'rule',
             now() - interval '30 days' + g * interval '2 minutes'
      from generate_series(1, ${offers}) g`);
    await db.execute(sql`
      insert into offers_reward_events (game_id, player_id, source_kind, source_id, offer_id, rewards, source, occurred_at)
      select ${GAME}, ${player}, 'offer', ${player} || '-r' || g, 'offer-' || (g % 40), '[{"kind":"coins","rewardId":"gold","name":"Gold","amount":10}]', 'server',
             now() - interval '30 days' + g * interval '6 minutes' + interval '1 second'
      from generate_series(1, ${rewards}) g`);
    await db.execute(sql`
      insert into offers_webhook_deliveries (endpoint_id, game_id, message_id, event_type, reward_event_id, status, tries, attempts, attempt_log, event_at, created_at, updated_at)
      select 'ep_bench', ${GAME}, r.event_id, 'reward.granted', r.id, 'delivered', 1, 1, jsonb_build_array(jsonb_build_object('at', r.occurred_at, 'statusCode', 200, 'error', null, 'latencyMs', 12)),
             r.occurred_at, r.occurred_at + interval '10 milliseconds', now()
      from offers_reward_events r where r.game_id = ${GAME} and r.player_id = ${player} order by r.id limit ${deliveries}`);
    await db.execute(sql`
      insert into offers_support_grants (grant_id, game_id, player_id, reward, reason, requested_by, status, approval_required, fingerprint, created_at, decided_at, updated_at)
      select 'sg_' || ${player} || '_' || g, ${GAME}, ${player}, '{"kind":"coins","rewardId":"gold","name":"Gold","amount":5}', 'bench', 'sam', 'granted', g % 2 = 0, 'f',
             now() - interval '30 days' + g * interval '50 minutes', now() - interval '30 days' + g * interval '50 minutes' + interval '5 minutes', now()
      from generate_series(1, ${grants}) g`);
  };
  const started = performance.now();
  await seed(PLAYER, Math.round(EVENTS * 0.6), Math.round(EVENTS * 0.2), Math.round(EVENTS * 0.15), Math.round(EVENTS * 0.05));
  for (let i = 0; i < OTHERS; i++) await seed(`other-${i}`, 20, 20, 20, 20);
  await db.execute(sql`analyze`);
  console.log(`seeded ${EVENTS} events for one player and ${OTHERS} × 80 for others in ${Math.round((performance.now() - started) / 1000)} s`);

  const query = { kinds: [...TIMELINE_KINDS], limit: 50 };
  const first = await playerTimeline(db, GAME, PLAYER, new Date(), query);
  if (first.entries.length !== 50 || !first.next) throw new Error("the first page is not a full page with a next cursor");
  let deep = first;
  for (let i = 1; i < 20; i++) deep = await playerTimeline(db, GAME, PLAYER, new Date(), { ...query, before: deep.next! });
  const deepCursor = deep.next!;

  const time = async (before?: string) => {
    const ms: number[] = [];
    for (let i = 0; i < READS / 10; i++) await playerTimeline(db, GAME, PLAYER, new Date(), { ...query, before }); // warm
    for (let i = 0; i < READS; i++) {
      const t0 = performance.now();
      await playerTimeline(db, GAME, PLAYER, new Date(), { ...query, before });
      ms.push(performance.now() - t0);
    }
    return ms.sort((a, b) => a - b);
  };
  const firstMs = await time();
  const deepMs = await time(deepCursor);
  const p95 = percentile(firstMs, 95);
  console.log(`\ntimeline of a player with ${EVENTS} events (${OTHERS} other players), ${READS} reads each, one at a time`);
  console.log(`  first page:      p50 ${percentile(firstMs, 50).toFixed(1)} ms   p95 ${p95.toFixed(1)} ms   target p95 < 100 ms  ${verdict(p95 < 100)}`);
  console.log(`  page 21 (deep):  p50 ${percentile(deepMs, 50).toFixed(1)} ms   p95 ${percentile(deepMs, 95).toFixed(1)} ms`);
  new BenchResults("offers-timeline", { events: EVENTS, other_players: OTHERS, reads: READS })
    .record("first_page.p50", percentile(firstMs, 50), "ms")
    .record("first_page.p95", p95, "ms", { text: "< 100", met: p95 < 100 })
    .record("page_21.p50", percentile(deepMs, 50), "ms")
    .record("page_21.p95", percentile(deepMs, 95), "ms")
    .save();
  await handle.close();
  await run.finish();
}

await main();
process.exit(0);
