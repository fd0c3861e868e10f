// Production builds of both services on their own ports (E2E_PORTAL_PORT, E2E_OFFERS_PORT; 3100 and
// 4100 by default) with a fresh data directory, their own Redis prefix and the development sign-in.
// Each Playwright worker starts one (e2e/fixtures.ts) with --no-build, the build having been made
// once before (scripts/build-if-stale.mjs); by hand it builds first when the build is stale.
// SIGTERM stops both services.
import { randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { buildIfStale } from "./build-if-stale.mjs";
import { runServices } from "./lib/services.mjs";

if (!process.argv.includes("--no-build")) buildIfStale();

const portalPort = process.env.E2E_PORTAL_PORT ?? "3100";
const offersPort = process.env.E2E_OFFERS_PORT ?? "4100";
const dataDir = `.data/e2e-${portalPort}`;
rmSync(dataDir, { recursive: true, force: true });
// Migrated templates of the embedded databases, when the caller made them (e2e/global-setup.ts): the
// services then open a migrated database instead of creating and migrating one (about 5 s of CPU each).
for (const [service, template] of [["offers", process.env.E2E_OFFERS_DB_TEMPLATE], ["portal", process.env.E2E_PORTAL_DB_TEMPLATE]]) {
  if (!template) continue;
  mkdirSync(`${dataDir}/${service}`, { recursive: true });
  execFileSync("tar", ["-xf", template, "-C", `${dataDir}/${service}`], { stdio: ["ignore", "ignore", "pipe"] });
}
const env = {
  NODE_ENV: "production",
  DATA_DIR: dataDir,
  PORT: portalPort,
  PORTAL_HOST: "127.0.0.1",
  OFFERS_PORT: offersPort,
  OFFERS_BASE_URL: `http://127.0.0.1:${offersPort}`,
  NEXTAUTH_URL: `http://127.0.0.1:${portalPort}`,
  PORTAL_DEV_LOGIN: "1",
  PORTAL_DEV_TOKEN: "e2e-admin-token-0123456789",
  OFFERS_ADMIN_TOKEN: "e2e-offers-admin-token-0123456789",
  OFFERS_DEMO_DATA: "on",
  // The journeys make their own portal data; the lived-in demo is covered by lib/portal/demo-seed.integration.test.ts.
  PORTAL_DEMO_DATA: "off",
  LOG_LEVEL: "warn",
  // The webhook journeys' receivers listen on loopback, which production refuses by default.
  OFFERS_WEBHOOK_ALLOW_PRIVATE: "1",
  // The e2e run uses the embedded databases even when the unit tests point at a server.
  OFFERS_DATABASE_URL: "",
  PORTAL_DATABASE_URL: "",
  REDIS_URL: process.env.TEST_REDIS_URL ?? "",
  // Other workers' servers (and other runs) share that Redis: their event buses, a player's one
  // stream and the rate-limit budgets must not meet these.
  REDIS_PREFIX: `e2e-${portalPort}-${randomBytes(4).toString("hex")}:`,
};
const { stopped } = runServices([
  // Both start at once (the portal asks the offers service nothing before a page does); whoever
  // waits for this pair waits for both /health answers (e2e/fixtures.ts).
  { name: "offers", command: "node", args: ["--enable-source-maps", "dist/offers/main.mjs"], env, healthUrl: `http://127.0.0.1:${offersPort}/health` },
  { name: "portal", command: "node", args: ["node_modules/next/dist/bin/next", "start", "--port", portalPort, "--hostname", "127.0.0.1"], env },
]);
process.exit(await stopped);
