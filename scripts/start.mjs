// `npm start`: the production builds of both services (run `npm run build` first).
import { existsSync } from "node:fs";
import { runServices } from "./lib/services.mjs";

if (!existsSync("dist/offers/main.mjs") || !existsSync(".next/BUILD_ID")) {
  console.error("No production build found: run `npm run build` first.");
  process.exit(1);
}
const portalPort = process.env.PORT ?? "3000";
const offersPort = process.env.OFFERS_PORT ?? "4000";
// The portal refuses to start the development sign-in on an address other than loopback (instrumentation.ts).
const portalHost = process.env.PORTAL_HOST ?? "127.0.0.1";
// An address of every interface is reached for the health check on loopback.
const portalHealthHost = ["0.0.0.0", "::", "[::]"].includes(portalHost) ? "127.0.0.1" : portalHost.includes(":") && !portalHost.startsWith("[") ? `[${portalHost}]` : portalHost;
const env = {
  NODE_ENV: "production",
  PORT: portalPort,
  PORTAL_HOST: portalHost,
  OFFERS_PORT: offersPort,
  OFFERS_BASE_URL: process.env.OFFERS_BASE_URL ?? `http://127.0.0.1:${offersPort}`,
  NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${portalPort}`,
};
const { stopped, ready } = runServices([
  { name: "offers", command: "node", args: ["--enable-source-maps", "--import", "./dist/offers/tracing.mjs", "dist/offers/main.mjs"], env, healthUrl: `http://127.0.0.1:${offersPort}/health` },
  { name: "portal", command: "npx", args: ["next", "start", "--port", portalPort, "--hostname", portalHost], env, healthUrl: `http://${portalHealthHost}:${portalPort}/health` },
]);
// A failed start or a signal ends `stopped` at once; the banner shows only when both answer.
void ready.then((up) => up && console.log(`\n  Portal http://localhost:${portalPort}   Offers http://localhost:${offersPort}/v1\n`));
process.exit(await stopped);
