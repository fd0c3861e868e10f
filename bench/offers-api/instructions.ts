/**
 * Instructions per campaigns fetch, the service's against the bare node:http server's (./bare-server),
 * counted by valgrind's callgrind: a count that does not move with what else the machine runs, where
 * requests per second and CPU time per request move by ±10 % from one run to the next here (so a
 * change of a few µs cannot be told from noise by run.ts). Each server runs alone under callgrind with
 * counting off, answers `BENCH_WARMUP` requests (40,000) so that the JIT has settled, then counts
 * while it answers `BENCH_REQUESTS` (3,000), 50 connections at a time, readers with five offers each.
 * Prints instructions per request of both: on the main thread, which repeats to ±0.5 % from run to
 * run, and in all, which does not (±5 %: how much V8's worker threads compile and mark while the
 * requests are counted varies).
 *
 *   npm run build:offers && npx tsx bench/offers-api/instructions.ts
 *
 * Target: the bare server's count ≥ 0.9 × the service's (the campaigns target of run.ts, counted).
 * Instructions are not time (cache misses, and the PostgreSQL and load generator CPU the two share),
 * but a change to the service's per-request code shows here, to a few hundred instructions.
 * Needs valgrind (Debian's package); prints a reason and stops where it is missing. About 5 minutes;
 * BENCH_ONLY=service (or bare) counts one of them.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openOffersDatabase } from "../../lib/offers/db";
import { OffersEngine } from "../../lib/offers/engine";
import { GameDirectory } from "../../lib/offers/games";
import { SecretBox } from "../../lib/offers/secret-box";
import { startBenchRun, verdict, waitForHealthy } from "../lib/common";
import { BENCH_OFFER_DEFINITION, BENCH_OFFER_ID, insertReaders, readerTokens } from "./rows";

const PLAYERS = 2_000;
const WARMUP = Number(process.env.BENCH_WARMUP ?? 40_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3_000);
const GAME = "bench-game";
/** BENCH_ONLY=service or bare: count one server only (while changing the service, its count alone). */
const ONLY = (["service", "bare"] as const).find((which) => which === process.env.BENCH_ONLY);
const API_KEY = `bench-key-${randomBytes(8).toString("hex")}`;
const SECRET_KEY = randomBytes(32).toString("hex");

type Count = { total: number; background: number; compile: number };

/** Instructions in all, in the V8 platform's worker threads (optimizing compilation, concurrent marking, sweeping), and in optimizing compilation. */
function countOf(file: string): Count {
  const annotated = execFileSync("callgrind_annotate", ["--inclusive=yes", "--threshold=100", file], { maxBuffer: 256 * 1024 * 1024 }).toString();
  const lines = annotated.split("\n");
  // Inclusive costs (callees counted): "  1,234,567 (12.34%)  file:function [object]".
  const cost = (pattern: RegExp) => Number(/^\s*([\d,]+)/.exec(lines.find((line) => pattern.test(line)) ?? "")?.[1]?.replaceAll(",", "") ?? 0);
  return { total: cost(/PROGRAM TOTALS/), background: cost(/PlatformWorkerThread/), compile: cost(/PipelineCompilationJob::ExecuteJobImpl/) };
}

async function main() {
  try {
    execFileSync("valgrind", ["--version"]);
  } catch {
    console.log("instructions bench skipped: valgrind is not installed (apt-get install valgrind)");
    return;
  }
  const run = await startBenchRun("bench_instructions", 20 * 60_000);
  const outDir = mkdtempSync(path.join(tmpdir(), "bench-instructions-"));
  try {
    const database = await openOffersDatabase({ url: run.dbUrl, poolSize: 4 });
    await new GameDirectory(database.db, new SecretBox(SECRET_KEY)).createGame({ gameId: GAME, name: "Bench game", clientId: "bench-client", apiKey: API_KEY });
    await new OffersEngine({ db: database.db }).upsertDefinition(GAME, BENCH_OFFER_ID, BENCH_OFFER_DEFINITION);
    await insertReaders(database.db, GAME, PLAYERS, new Date());
    await database.db.execute("analyze");
    await database.close();
    const tokens = await readerTokens(GAME, API_KEY, PLAYERS);

    const counts: Partial<Record<"service" | "bare", Count>> = {};
    for (const which of ONLY ? [ONLY] : (["service", "bare"] as const)) {
      const port = 4900 + Math.floor(Math.random() * 100);
      const server =
        which === "service" ? [process.execPath, "dist/offers/main.mjs"] : [process.execPath, "--import", "tsx", "bench/offers-api/bare-server.ts"];
      const child = spawn("valgrind", ["--tool=callgrind", "--instr-atstart=no", `--callgrind-out-file=${outDir}/${which}.%p`, ...server], {
        stdio: "ignore",
        env: {
          ...process.env,
          NODE_ENV: "production",
          LOG_LEVEL: "warn",
          OFFERS_PORT: String(port),
          BARE_PORT: String(port),
          OFFERS_DATABASE_URL: run.dbUrl,
          OFFERS_DATABASE_POOL_SIZE: "8",
          OFFERS_SECRET_KEY: SECRET_KEY,
          OFFERS_ADMIN_TOKEN: randomBytes(24).toString("hex"),
          OFFERS_DEMO_DATA: "off",
          REDIS_URL: "",
          OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE: "0",
        },
      });
      run.children.push(child);
      await waitForHealthy(`http://127.0.0.1:${port}/health`, 5 * 60_000);
      let next = 0;
      const fetchCampaigns = (amount: number) =>
        autocannon({
          url: `http://127.0.0.1:${port}/v1/client/player/campaigns`,
          connections: 50,
          amount,
          timeout: 120,
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
      await fetchCampaigns(WARMUP);
      const control = (...args: string[]) => execFileSync("callgrind_control", [...args, String(child.pid)], { stdio: "ignore" });
      control("--instr=on");
      control("--zerocost");
      const counted = await fetchCampaigns(REQUESTS);
      control("--dump");
      if (counted.non2xx > 0 || counted.errors > 0) throw new Error(`${which}: ${counted.non2xx} non-2xx answers, ${counted.errors} errors`);
      const dump = readdirSync(outDir).find((name) => name.startsWith(`${which}.${child.pid}.`));
      if (!dump) throw new Error(`${which}: callgrind wrote no dump`);
      const count = countOf(path.join(outDir, dump));
      const perRequest = (n: number) => n / counted.requests.total / 1000;
      counts[which] = { total: perRequest(count.total), background: perRequest(count.background), compile: perRequest(count.compile) };
      child.kill("SIGTERM");
    }
    const { service, bare } = counts;
    const row = (name: string, c: Count | undefined) =>
      c
        ? `  ${name.padEnd(16)}${(c.total - c.background).toFixed(0).padStart(11)}   ${c.total.toFixed(0).padStart(11)}   ${c.background.toFixed(0).padStart(14)}   ${c.compile.toFixed(0).padStart(7)}`
        : `  ${name.padEnd(16)}  (not run)`;
    console.log(`
campaigns fetch, thousands of instructions per request (callgrind; ${WARMUP.toLocaleString("en")} requests first, uncounted, then ${REQUESTS.toLocaleString("en")})
                    main thread   all threads   V8's workers   of which compiling
${row("Fastify service", service)}
${row("bare node:http", bare)}`);
    if (service && bare) {
      const main = (bare.total - bare.background) / (service.total - service.background);
      const all = bare.total / service.total;
      console.log(`  ratio, main thread   ${main.toFixed(2)}   target ≥ 0.9  ${verdict(main >= 0.9)}   (bare ÷ service; the same to ±0.5 % from run to run)
  ratio, all threads   ${all.toFixed(2)}   target ≥ 0.9  ${verdict(all >= 0.9)}   (±5 % from run to run: when V8 compiles and marks varies)
  the service runs ${(service.total - service.background - (bare.total - bare.background)).toFixed(0)} thousand instructions more per request on its main thread`);
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
    await run.finish();
  }
}

await main();
process.exit(0);
