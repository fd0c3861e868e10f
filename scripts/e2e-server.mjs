// Started by Playwright: production builds of both services on their own ports with a fresh data
// directory and the development sign-in. Builds first when a build is missing or older than the code.
import { execSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { runServices } from "./lib/services.mjs";

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}
const sourceTime = Math.max(...["app", "components", "lib", "config"].filter(existsSync).map(newestMtime));
const builtAt = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);
if (builtAt("dist/offers/main.mjs") < sourceTime) execSync("npm run build:offers", { stdio: "inherit" });
if (builtAt(".next/BUILD_ID") < sourceTime) execSync("npm run build:portal", { stdio: "inherit" });

const portalPort = process.env.E2E_PORTAL_PORT ?? "3100";
const offersPort = process.env.E2E_OFFERS_PORT ?? "4100";
const dataDir = `.data/e2e-${portalPort}`;
rmSync(dataDir, { recursive: true, force: true });
const env = {
  NODE_ENV: "production",
  DATA_DIR: dataDir,
  PORT: portalPort,
  PORTAL_HOST: "127.0.0.1",
  OFFERS_PORT: offersPort,
  OFFERS_BASE_URL: `http://127.0.0.1:${offersPort}`,
  NEXTAUTH_URL: `http://127.0.0.1:${portalPort}`,
  DASHBOARD_URL: `http://127.0.0.1:${portalPort}`,
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
};
const { stopped } = runServices([
  // The portal starts once offers answers, so the portal's /health (Playwright's signal) means both are up.
  { name: "offers", command: "node", args: ["--enable-source-maps", "dist/offers/main.mjs"], env, readyUrl: `http://127.0.0.1:${offersPort}/health` },
  { name: "portal", command: "npx", args: ["next", "start", "--port", portalPort, "--hostname", "127.0.0.1"], env },
]);
process.exit(await stopped);
