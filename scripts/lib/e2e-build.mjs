// The production builds the browser journeys run: built when missing or older than the code. Run once
// before Playwright's workers start (playwright.config.ts's globalSetup), and by scripts/e2e-server.mjs
// when started by hand.
import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

export function buildIfStale() {
  const sourceTime = Math.max(...["app", "components", "lib", "config"].filter(existsSync).map(newestMtime));
  const builtAt = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);
  if (builtAt("dist/offers/main.mjs") < sourceTime) execSync("npm run build:offers", { stdio: "inherit" });
  if (builtAt(".next/BUILD_ID") < sourceTime) execSync("npm run build:portal", { stdio: "inherit" });
}

export default buildIfStale;
