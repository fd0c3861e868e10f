import { defineConfig } from "@playwright/test";
import { existsSync } from "node:fs";

// End-to-end journeys against the production builds of both services, in the system Chromium. The
// build is made once, if stale, before the workers start (globalSetup); each worker then runs its own
// portal and offers service with a fresh data directory (e2e/fixtures.ts, scripts/e2e-server.mjs) on
// the base ports (E2E_PORTAL_PORT, E2E_OFFERS_PORT: 3100 and 4100) plus 10 per worker, so every
// journey makes the data it needs and runs in any order. No retries: a flaky journey gets fixed.
// The journeys run headless: Debian's old headless shell (chromium-headless-shell, the same Chromium
// release) spends about a fifth less CPU per journey than the full browser's headless mode. A headed
// or debugging run needs the full browser.
const headed = process.argv.includes("--headed") || process.argv.includes("--ui") || process.argv.includes("--debug") || Boolean(process.env.PWDEBUG);
const headlessShell = "/usr/bin/chromium-headless-shell";
const browserPath = process.env.CHROMIUM_PATH ?? (!headed && existsSync(headlessShell) ? headlessShell : "/usr/bin/chromium");

export default defineConfig({
  testDir: "./e2e",
  globalSetup: "./e2e/global-setup.ts",
  workers: 2,
  fullyParallel: true,
  reporter: "list",
  // Sized for a loaded 2-core machine, where one page load took up to 15 s (the journeys with a dozen
  // of them set more).
  timeout: 180_000,
  expect: { timeout: 20_000 },
  retries: 0,
  use: {
    browserName: "chromium",
    // A failed journey keeps its trace: each action with the DOM before and after it, the network and the console.
    // Without the screencast: its frames cost about a tenth of the journeys' CPU (bench/results/e2e-trace-cpu.tsv),
    // and the DOM snapshots show what a frame would.
    trace: { mode: "retain-on-failure", screenshots: false },
    launchOptions: {
      executablePath: browserPath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
});
