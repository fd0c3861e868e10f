// The esbuild options of the offers bundle, in one place: scripts/build-offers.mjs builds dist/offers
// with them, and lib/offers/tracing.system.test.ts builds the bundle it starts with them, so the test runs
// what ships. Each adds where to write (outdir) and how much to log.
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
