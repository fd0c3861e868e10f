import { defineConfig } from "@playwright/test";
import { PORTAL_URL } from "./e2e/urls";

// End-to-end journeys against the production builds of both services (scripts/e2e-server.mjs:
// portal on 3100, offers on 4100 (E2E_PORTAL_PORT, E2E_OFFERS_PORT), fresh DATA_DIR, development sign-in on), in the system Chromium.
export default defineConfig({
  testDir: "./e2e",
  workers: 1,
  fullyParallel: false,
  reporter: "list",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: process.env.CI ? 1 : 0,
  use: {
    baseURL: PORTAL_URL,
    browserName: "chromium",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `${PORTAL_URL}/health`,
    reuseExistingServer: !process.env.CI,
    // SIGTERM lets scripts/e2e-server.mjs stop both services (they run in their own process groups).
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    timeout: 300_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
