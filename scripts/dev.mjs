// `npm run dev`: both services on embedded defaults with demo data, hot reload, one Ctrl-C stops both.
import { runServices } from "./lib/services.mjs";

const portalPort = process.env.PORT ?? "3000";
const offersPort = process.env.OFFERS_PORT ?? "4000";
// Loopback: the development sign-in is on (the portal refuses it elsewhere without PORTAL_DEV_LOGIN_ANY_HOST=1).
const portalHost = process.env.PORTAL_HOST ?? "127.0.0.1";
// An address of every interface is reached for the health check on loopback.
const portalHealthHost = ["0.0.0.0", "::", "[::]"].includes(portalHost) ? "127.0.0.1" : portalHost.includes(":") && !portalHost.startsWith("[") ? `[${portalHost}]` : portalHost;
const env = {
  NODE_ENV: "development",
  PORT: portalPort,
  PORTAL_HOST: portalHost,
  OFFERS_PORT: offersPort,
  OFFERS_BASE_URL: process.env.OFFERS_BASE_URL ?? `http://127.0.0.1:${offersPort}`,
  NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? `http://localhost:${portalPort}`,
  PORTAL_DEV_LOGIN: process.env.PORTAL_DEV_LOGIN ?? "1",
  PORTAL_DEV_TOKEN: process.env.PORTAL_DEV_TOKEN ?? "dev-admin-token-change-me",
};

const { stopped, ready } = runServices([
  { name: "offers", command: "npx", args: ["tsx", "watch", "--clear-screen=false", "--import", "./lib/offers/tracing.ts", "lib/offers/main.ts"], env, healthUrl: `http://127.0.0.1:${offersPort}/health` },
  { name: "portal", command: "npx", args: ["next", "dev", "--port", portalPort, "--hostname", portalHost], env, healthUrl: `http://${portalHealthHost}:${portalPort}/health` },
  // Under watch, a crash waits for the next save instead of exiting: no start deadline in development.
], { startTimeoutMs: Number.POSITIVE_INFINITY });

void ready.then((up) => {
  if (!up) return;
  const demoGame = process.env.DEMO_GAME_ID ?? "demo-game";
  console.log(`
  Portal          http://localhost:${portalPort}
                  sign in at http://localhost:${portalPort}/auth/dev/login with any name;
                  "admin" has every role, "lee" is a lead, "olga" an operator, "sam" support,
                  "lina" live ops.
                  API token of admin: ${env.PORTAL_DEV_TOKEN}
  Offers service  http://localhost:${offersPort}/v1   (API docs: http://localhost:${offersPort}/v1/docs)
                  demo game: gameId=${demoGame} clientId=${process.env.DEMO_CLIENT_ID ?? "demo-client"} apiKey=${process.env.DEMO_API_KEY ?? "demo-api-key"}
                  its test environment: clientId=${process.env.DEMO_TEST_CLIENT_ID ?? "cl_test_demo"} apiKey=${process.env.DEMO_TEST_API_KEY ?? "ok_test_demo-api-key"}
  Ctrl-C stops both.
`);
});
process.exit(await stopped);
