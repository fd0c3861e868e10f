/**
 * How fast two portal instances agree: `node --conditions=react-server --import tsx bench/catalog/follow.ts [--count 10000] [--commits 100]`
 * (react-server: the portal modules import "server-only", which refuses any other condition)
 *
 * Two portal services (lib/portal/services.ts, in this process) on one PostgreSQL database (a scratch one
 * on BENCH_DATABASE_URL, default the local server) and one config remote (a bare repository of N generated
 * records), each with its own data directory. Each commit is a record edit through one instance, taking
 * turns; the figure is the time from the edit answering to the other instance showing it (polled every
 * millisecond), p50/p99/max over the commits (target p99 < 1 s), and what the follower read for it
 * (only the changed file: no full re-read). The two instances share this process's event loop and cores,
 * as two instances on one host would share the cores.
 *
 * The figures are appended to bench/results/catalog-follow.tsv.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { generateCatalog } from "./generate";
import { createConfigRemote } from "../../test-support/catalog/config-remote";
import type { Catalog } from "../../lib/catalog/catalog";
import { portalConfigSchema } from "../../lib/portal/portal-yaml";
import { createPortalServices, type PortalServices } from "../../lib/portal/services";
import { createBenchDatabase, percentile, verdict } from "../lib/common";
import { BenchResults } from "../lib/results";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => Number(args[args.indexOf(name) + 1] || 0) || fallback;
const count = option("--count", 10_000);
const commits = option("--commits", 100);
const TARGET_P99_MS = 1000;

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), "catalog-follow-bench-"));
  const database = await createBenchDatabase("catalog_follow");
  const services: PortalServices[] = [];
  try {
    process.env.GIT_CONFIG_PARAMETERS = "'gc.auto=0'";
    console.log(`generating ${count} records and the config remote in ${root} …`);
    await generateCatalog(path.join(root, "shipped"), count);
    const { bare: remote } = await createConfigRemote(path.join(root, "remote"), path.join(root, "shipped"));

    const config = portalConfigSchema.parse({ roles: { default: [], users: {}, groups: {} } });
    const open = (name: string): PortalServices => {
      const dataDir = path.join(root, name);
      const s = createPortalServices({
        database: { url: database.url },
        catalog: { dataDir, shippedDir: path.join(root, "unused"), remoteUrl: remote, following: { safetyPollMs: 0 } },
        gitops: { provider: "local", dataDir, gitlabUrl: "http://gitlab.invalid", demo: false, configRepoUrl: remote },
        auth: { secret: "catalog-follow-bench-secret-012345", sessionCookieName: "s", devLogin: true, config: () => config },
        offersAdmin: () => ({ baseUrl: "http://offers.invalid", token: "unused-offers-admin-token" }),
      });
      services.push(s);
      return s;
    };
    const [a, b] = await Promise.all([open("a"), open("b")].map(async (s) => (await s.database(), s.catalog())));
    // Both listening (each instance's first LISTEN), and settled on the same commit.
    await new Promise((r) => setTimeout(r, 1000));
    console.log(`two instances open on ${a.size} records; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`);

    const names = a.entries().map((e) => e.name);
    const lags: number[] = [];
    const reads: string[] = [];
    for (let i = 0; i < commits; i++) {
      const [writer, follower]: Catalog[] = i % 2 ? [b, a] : [a, b];
      const name = names[(i * 7919) % names.length];
      const written = await writer.update(name, { mode: "merge", body: { metadata: { description: `edit ${i}` } }, ifMatch: "*", author: { id: "bench", name: "Bench" } });
      const answered = performance.now();
      const deadline = answered + 10_000;
      while (follower.get(name)?.etag !== written.entry.etag) {
        if (performance.now() > deadline) throw new Error(`commit ${i} (${name}) not shown by the other instance after 10 s`);
        await new Promise((r) => setTimeout(r, 1));
      }
      lags.push(performance.now() - answered);
      reads.push(`${follower.lastLoad?.source}:${follower.lastLoad?.filesRead}`);
    }
    const sorted = [...lags].sort((x, y) => x - y);
    const [p50, p99, max] = [percentile(sorted, 50), percentile(sorted, 99), sorted[sorted.length - 1]];
    const readKinds = [...new Set(reads)].join(",");
    console.log(`commit through one instance → shown by the other, over ${commits} commits at ${count} records:`);
    console.log(`  p50 ${p50.toFixed(1)} ms   p99 ${p99.toFixed(1)} ms (target < ${TARGET_P99_MS} ms: ${verdict(p99 < TARGET_P99_MS)})   max ${max.toFixed(1)} ms`);
    console.log(`  what the follower read per commit: ${readKinds} (source:files read)`);
    new BenchResults("catalog-follow", { records: count, commits })
      .record("follow_p50", p50, "ms")
      .record("follow_p99", p99, "ms", { text: `< ${TARGET_P99_MS}`, met: p99 < TARGET_P99_MS })
      .record("follow_max", max, "ms")
      .save(`follower read ${readKinds} (source:files read)`);
  } finally {
    for (const s of services) await s.close().catch(() => {});
    await database.drop().catch(() => {});
    await rm(root, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
