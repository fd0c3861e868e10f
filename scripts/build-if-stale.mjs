// The production builds the tests start (dist/offers, .next): built when missing or older than the code.
// `npm test` runs this first, so the system tier and the browser journeys find both builds made; Playwright's
// globalSetup and scripts/e2e-server.mjs run it too when started alone.
import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

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

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) buildIfStale();
