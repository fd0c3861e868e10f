// Bundles the offers service (server and CLI) into dist/offers with esbuild; npm packages stay
// external and are loaded from node_modules. Migrations are read from lib/offers/db/migrations.
import { build } from "esbuild";
import { rmSync } from "node:fs";

rmSync("dist/offers", { recursive: true, force: true });
await build({
  // tracing: the preload that starts OpenTelemetry before main's modules load (node --import).
  entryPoints: { main: "lib/offers/main.ts", cli: "lib/offers/cli.ts", tracing: "lib/offers/tracing.ts" },
  outdir: "dist/offers",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "info",
});
