/**
 * Catalog benchmark: `npx tsx bench/catalog/run.ts [--count 10000] [--http] [--tti]`
 *
 * 1. Generates N component files into a fresh config repository (git init + commit) in a temp dir.
 * 2. Cold load: a new Catalog reads and validates every file (target < 2 s at 10,000).
 * 3. In-process list queries (q, filters, paging) p50/p99 — what GET /api/components spends in lib.
 * 4. --http: starts the built portal (`next start`, needs `npm run build:portal` first) on that data
 *    directory and runs autocannon on GET /api/components?q=… (target p50 < 50 ms).
 * 5. --tti (with --http): Chromium time until the catalog page answers "/" (target < 1 s).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { generateCatalog } from "./generate";
import { ensureConfigRepo } from "../../lib/catalog/repo";
import { Catalog } from "../../lib/catalog/catalog";
import { listQuerySchema } from "../../lib/catalog/query";

const args = process.argv.slice(2);
const count = Number(args[args.indexOf("--count") + 1] || 0) || 10_000;
const withHttp = args.includes("--http");
const withTti = args.includes("--tti");
const PORT = Number(process.env.BENCH_PORT ?? 3199);
const TOKEN = "bench-admin-token-0123456789";

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
function line(label: string, value: string, target: string, ok: boolean | null) {
  console.log(`${label.padEnd(44)} ${value.padStart(12)}   target ${target.padEnd(10)} ${ok === null ? "" : ok ? "OK" : "MISSED"}`);
}

async function main() {
  const root = await mkdtemp(path.join(tmpdir(), "catalog-bench-"));
  const dataDir = path.join(root, "data");
  let server: ChildProcess | undefined;
  try {
    // No background `git gc --auto` competing with the measurements.
    process.env.GIT_CONFIG_PARAMETERS = "'gc.auto=0'";
    console.log(`generating ${count} component files in ${root} …`);
    let t = performance.now();
    await generateCatalog(path.join(root, "shipped"), count);
    const repo = await ensureConfigRepo({ dataDir, shippedDir: path.join(root, "shipped") });
    console.log(`  generated and committed in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    // Cold load: a new Catalog (nothing parsed yet) reads, parses and validates every file — what a
    // portal process does at start. Three runs; the median is the figure (the machine is shared).
    const colds: number[] = [];
    let catalog!: Catalog;
    for (let run = 0; run < 3; run++) {
      t = performance.now();
      catalog = new Catalog({ repo });
      const summary = await catalog.refresh({ pull: false });
      colds.push(performance.now() - t);
      if (summary.components !== count || summary.errors.length) throw new Error(`expected ${count} records, got ${summary.components} and ${summary.errors.length} errors`);
    }
    const cold = [...colds].sort((a, b) => a - b)[1];
    t = performance.now();
    await catalog.refresh({ pull: false });
    const warm = performance.now() - t;

    const queries = ["q=offers", "q=user12", "q=checkout-api", "kind=service&environment=production", "q=team-7&dependency=redis", "sort=displayName&page=40", "q=nomatchatall", "group=org/team-3&order=desc"];
    const times: number[] = [];
    const cachedTimes: number[] = [];
    for (let round = 0; round < 200; round++) {
      for (const q of queries) {
        const query = listQuerySchema.parse(Object.fromEntries(new URLSearchParams(q)));
        catalog.clearQueryCache();
        let s = performance.now();
        catalog.list(query, new Set(["offers-api-00001"]));
        times.push(performance.now() - s);
        s = performance.now();
        catalog.list({ ...query, page: query.page + 1 }, new Set(["offers-api-00001"]));
        cachedTimes.push(performance.now() - s);
      }
    }
    times.sort((a, b) => a - b);
    cachedTimes.sort((a, b) => a - b);

    console.log("");
    line(`cold load of ${count} records (median of 3)`, `${cold.toFixed(0)} ms`, "< 2000 ms", cold < 2000);
    console.log(`${"".padEnd(44)} runs: ${colds.map((c) => c.toFixed(0)).join(", ")} ms`);
    line(`refresh, nothing changed`, `${warm.toFixed(0)} ms`, "", null);
    line(`in-process list query p50 (uncached)`, `${pct(times, 50).toFixed(2)} ms`, "< 50 ms", pct(times, 50) < 50);
    line(`in-process list query p99 (uncached)`, `${pct(times, 99).toFixed(2)} ms`, "", null);
    line(`in-process next page of a query p50 (cached)`, `${pct(cachedTimes, 50).toFixed(3)} ms`, "", null);

    if (!withHttp) {
      console.log("\n(--http runs autocannon against the built portal; --tti adds the page's time to interactive)");
      return;
    }
    if (!existsSync(".next/BUILD_ID")) {
      console.log("\nno portal build (.next/BUILD_ID): run `npm run build:portal` first; HTTP figures skipped");
      return;
    }
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production" as const,
      DATA_DIR: dataDir,
      PORT: String(PORT),
      PORTAL_DATABASE_URL: "",
      PORTAL_DEV_TOKEN: TOKEN,
      PORTAL_DEV_LOGIN: "1",
      NEXTAUTH_URL: `http://127.0.0.1:${PORT}`,
      NEXTAUTH_SECRET: "bench-secret-0123456789abcdef",
      LOG_LEVEL: "warn",
    };
    const child = spawn("npx", ["next", "start", "--port", String(PORT)], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    server = child;
    child.stderr?.on("data", (d) => process.stderr.write(`[portal] ${d}`));
    const base = `http://127.0.0.1:${PORT}`;
    for (let i = 0; ; i++) {
      if (i > 240) throw new Error("portal did not start");
      const ok = await fetch(`${base}/health`).then((r) => r.ok, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    t = performance.now();
    const first = await fetch(`${base}/api/components?q=offers`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const firstMs = performance.now() - t;
    if (!first.ok) throw new Error(`GET /api/components answered ${first.status}`);
    line(`first request (cold load inside the portal)`, `${firstMs.toFixed(0)} ms`, "", null);

    // Sign in once in Chromium (the development sign-in): the page timing, and the session cookie the
    // UI's own requests carry. Bearer tokens are measured too (each is looked up in the database).
    let cookie: string | undefined;
    if (withTti) {
      const { chromium } = await import("@playwright/test");
      const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
      try {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${base}/auth/dev/login?callbackUrl=%2F`);
        const signIn = page.getByRole("button", { name: "Sign in", exact: true });
        for (let i = 0; i < 40 && !(await signIn.isEnabled()); i++) {
          await page.getByLabel("User name").fill("bench");
          await page.waitForTimeout(100);
        }
        await signIn.click();
        await page.waitForURL(`${base}/`);
        cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
        const samples: number[] = [];
        for (let i = 0; i < 5; i++) {
          const s = performance.now();
          await page.goto(`${base}/catalog`, { waitUntil: "commit" });
          // Interactive = the page's script answers "/" by focusing the search box.
          for (;;) {
            await page.keyboard.press("/");
            if (await page.evaluate(() => document.activeElement?.getAttribute("data-testid") === "catalog-search")) break;
            await page.waitForTimeout(10);
          }
          samples.push(performance.now() - s);
        }
        samples.sort((a, b) => a - b);
        line(`catalog page time to interactive (median of 5)`, `${pct(samples, 50).toFixed(0)} ms`, "< 1000 ms", pct(samples, 50) < 1000);
      } finally {
        await browser.close();
      }
    }

    const autocannon = (await import("autocannon")).default;
    const runs: Array<[string, Record<string, string>, number]> = [
      ["bearer token", { Authorization: `Bearer ${TOKEN}` }, 10],
      ["bearer token", { Authorization: `Bearer ${TOKEN}` }, 1],
    ];
    if (cookie) runs.unshift(["session cookie", { Cookie: cookie }, 10], ["session cookie", { Cookie: cookie }, 1]);
    for (const [how, headers, connections] of runs) {
      const result = await autocannon({ url: `${base}/api/components?q=offers&pageSize=25`, connections, duration: 8, headers });
      const label = `${how}, ${connections} conn.`;
      line(`HTTP ?q=offers p50 (${label})`, `${result.latency.p50} ms`, "< 50 ms", result.latency.p50 < 50);
      line(`HTTP ?q=offers p99 (${label})`, `${result.latency.p99} ms`, "", null);
      line(`HTTP throughput (${label})`, `${Math.round(result.requests.average)} req/s`, "", null);
      if (result.non2xx) line(`HTTP non-2xx (${label})`, `${result.non2xx}`, "0", false);
    }
    const [load1] = (await import("node:os")).loadavg();
    console.log(`\nload average during the run: ${load1.toFixed(1)} on ${(await import("node:os")).availableParallelism()} cores (shared machine)`);
  } finally {
    if (server?.pid) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
    }
    await rm(root, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
