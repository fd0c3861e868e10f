// The esbuild options of the offers bundle, in one place: scripts/build-offers.mjs builds dist/offers
// with them, and the system tests' setup (tests/setup/built-service.ts) rebuilds it with them when it is
// stale, so those tests run what ships. Each adds where to write (outdir) and how much to log.
export const offersBuildOptions = {
  // tracing: the preload that starts OpenTelemetry before main's modules load (node --import).
  entryPoints: { main: "lib/offers/main.ts", cli: "lib/offers/cli.ts", tracing: "lib/offers/tracing.ts" },
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
};
