/**
 * The campaigns read alone, in process, without HTTP: the engine's read (`preparedCampaignReads`:
 * the reads asked in one turn of the event loop share one statement, the player's row and their
 * instances as JSON) against the shape it replaced, one such statement per read. Both run on one
 * pool of 8 connections with `BENCH_IN_FLIGHT` (50, the HTTP bench's connections) reads in flight,
 * in alternating rounds of `BENCH_READS` (10,000), over `BENCH_PLAYERS` (2,000) players with five
 * offers each. Prints reads per second, this process's CPU per read and PostgreSQL's (every
 * `postgres` process on the machine, from /proc: run it on an otherwise idle server). Checks first
 * that both shapes answer the same rows.
 *
 *   npx tsx bench/offers-api/campaigns-read.ts
 *
 * Target: the shared statements cost less CPU per read than one statement each, this process's and
 * PostgreSQL's together (what the two take from a machine they share). The figures are appended to
 * bench/results/offers-api-campaigns-read.tsv.
 */
import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { eq, sql } from "drizzle-orm";
import { openOffersDatabase } from "../../lib/offers/db";
import { driverRowDecoder } from "../../lib/db";
import { games, offerInstances, players } from "../../lib/offers/db/schema";
import { preparedCampaignReads } from "../../lib/offers/engine/campaigns";
import { GameDirectory } from "../../lib/offers/games";
import { SecretBox } from "../../lib/offers/secret-box";
import { postgresCpuMeter, startBenchRun, verdict } from "../lib/common";
import { BenchResults } from "../lib/results";
import { insertReaders } from "./rows";

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 2_000);
const READS = Number(process.env.BENCH_READS ?? 10_000);
const ROUNDS = 4;
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 50);
const GAME = "bench-game";

async function main() {
  const run = await startBenchRun("bench_campaigns_read", 300_000);
  const handle = await openOffersDatabase({ url: run.dbUrl, poolSize: 8 });
  const db = handle.db;
  await new GameDirectory(db, new SecretBox(randomUUID().replaceAll("-", "").repeat(2))).createGame({ gameId: GAME, name: "Bench", clientId: "bench-client", apiKey: `bench-key-${randomUUID()}` });
  await insertReaders(db, GAME, PLAYERS, new Date());
  await db.execute(sql`analyze`);

  // The shape before reads shared statements: the same statement, for one player.
  const gameId = sql.placeholder("gameId");
  const playerId = sql.placeholder("playerId");
  const playerFromJson = driverRowDecoder(players);
  const instanceFromJson = driverRowDecoder(offerInstances);
  const perRead = db
    .select({
      player: sql`(select row_to_json(${players}) from ${players} where ${players.gameId} = ${gameId} and ${players.playerId} = ${playerId})`.mapWith(playerFromJson),
      offers: sql`(select coalesce(json_agg(${offerInstances} order by ${offerInstances.createdAt}, ${offerInstances.instanceId}), '[]') from ${offerInstances} where ${offerInstances.gameId} = ${gameId} and ${offerInstances.playerId} = ${playerId})`.mapWith(
        (rows: Record<string, unknown>[]) => rows.map(instanceFromJson),
      ),
    })
    .from(games)
    .where(eq(games.gameId, gameId))
    .prepare("bench_read_campaigns_one");
  const engineReads = preparedCampaignReads(db);
  const shapes = {
    "shared statements": (player: string) => engineReads.playerAndOffers(GAME, player),
    "one statement each": async (player: string) => (await perRead.execute({ gameId: GAME, playerId: player }))[0] ?? null,
  };
  const [shared, single] = await Promise.all(Object.values(shapes).map((read) => read("reader-1")));
  if (!isDeepStrictEqual(shared, single) || shared!.offers.length !== 5) throw new Error("the two shapes answered different rows");

  const measure = async (read: (player: string) => Promise<unknown>, count: number) => {
    const cpu = process.cpuUsage();
    const postgresUsed = postgresCpuMeter();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < count) await read(`reader-${next++ % PLAYERS}`);
      }),
    );
    const elapsed = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return { perSecond: (count / elapsed) * 1000, nodeUs: (used.user + used.system) / count, postgresUs: (postgresUsed() * 1000) / count };
  };
  const results = new Map<string, Awaited<ReturnType<typeof measure>>[]>();
  for (const read of Object.values(shapes)) await measure(read, READS / 4); // warm: plans, pool, JIT
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, read] of round % 2 ? Object.entries(shapes).reverse() : Object.entries(shapes)) {
      results.set(name, [...(results.get(name) ?? []), await measure(read, READS)]);
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const summary = [...results].map(([name, runs]) => ({ name, perSecond: median(runs.map((r) => r.perSecond)), nodeUs: median(runs.map((r) => r.nodeUs)), postgresUs: median(runs.map((r) => r.postgresUs)) }));
  console.log(`\ncampaigns read in process (${PLAYERS} players × 5 offers, ${IN_FLIGHT} in flight, pool of 8, median of ${ROUNDS} alternating rounds of ${READS})`);
  console.log("                          reads/s   node CPU/read   PostgreSQL CPU/read");
  for (const { name, perSecond, nodeUs, postgresUs } of summary) {
    console.log(`  ${name.padEnd(22)} ${Math.round(perSecond).toString().padStart(8)}   ${Math.round(nodeUs).toString().padStart(9)} µs   ${Math.round(postgresUs).toString().padStart(12)} µs`);
  }
  const [batched, each] = summary;
  const total = (shape: (typeof summary)[number]) => shape.nodeUs + shape.postgresUs;
  console.log(`  CPU per read, both processes: ${Math.round(total(batched!))} µs against ${Math.round(total(each!))} µs   target: less  ${verdict(total(batched!) < total(each!))}`);
  const figures = new BenchResults("offers-api-campaigns-read", { players: PLAYERS, in_flight: IN_FLIGHT, reads: READS });
  for (const [shape, key] of [[batched!, "shared"], [each!, "one_each"]] as const) {
    figures
      .record(`${key}.reads_per_second`, shape.perSecond, "reads/s")
      .record(`${key}.node_cpu_per_read`, shape.nodeUs, "µs")
      .record(`${key}.postgres_cpu_per_read`, shape.postgresUs, "µs");
  }
  figures.record("shared.cpu_per_read_both", total(batched!), "µs", { text: "< one_each.cpu_per_read_both", met: total(batched!) < total(each!) });
  figures.record("one_each.cpu_per_read_both", total(each!), "µs");
  figures.save();
  await handle.close();
  await run.finish();
}

await main();
process.exit(0);
