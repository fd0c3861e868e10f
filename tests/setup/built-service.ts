/**
 * Vitest globalSetup of the system tier: the built artefacts its tests start as processes, one
 * shared build for the whole run instead of tsx compiling the sources in every child process.
 *
 *   dist/offers  the offers service as it ships (`npm run build:offers`; main, cli, tracing preload)
 *   dist/test    test programs of the portal's code: the kill -9 harness
 *
 * Each is (re)built only when missing or older than one of the files it was built from (its source
 * maps list them) or than the build settings, so a fresh clone builds once and CI, which builds
 * dist/offers before testing, does not build it again.
 */
import { build, type BuildOptions } from "esbuild";
import { existsSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { offersBuildOptions } from "../../scripts/offers-build-options.mjs";

/** The test programs bundled into dist/test (packages external, as the service's bundle). */
export const testProgramEntryPoints = {
  "crash-harness": "test-support/portal/crash-harness.ts",
};

const mtime = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : Number.POSITIVE_INFINITY);

/**
 * Whether the bundles `names` in `outdir` are missing or older than a file they were built from:
 * every source listed in their source map, and `settings` (the files that say how to build).
 */
function isStale(outdir: string, names: string[], settings: string[]): boolean {
  for (const name of names) {
    const bundle = path.join(outdir, `${name}.mjs`);
    const map = `${bundle}.map`;
    if (!existsSync(bundle) || !existsSync(map)) return true;
    const builtAt = statSync(bundle).mtimeMs;
    const sources = (JSON.parse(readFileSync(map, "utf8")) as { sources: string[] }).sources.map((source) => path.resolve(outdir, source));
    // A source that is gone counts as changed (its importer changed too).
    if ([...sources, ...settings].some((file) => mtime(file) > builtAt)) return true;
  }
  return false;
}

/** Builds into a sibling folder and swaps it in, so a run never starts a half-written bundle. */
async function buildInto(outdir: string, options: BuildOptions): Promise<void> {
  const building = `${outdir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  await build({ ...options, outdir: building, logLevel: "warning" });
  rmSync(outdir, { recursive: true, force: true });
  renameSync(building, outdir);
}

export default async function setup(): Promise<void> {
  const buildSettings = ["scripts/offers-build-options.mjs", "scripts/build-offers.mjs", "tsconfig.json"];
  if (isStale("dist/offers", ["main", "cli", "tracing"], buildSettings)) {
    await buildInto("dist/offers", offersBuildOptions);
  }
  const testSettings = ["tests/setup/built-service.ts", "tsconfig.json"];
  if (isStale("dist/test", Object.keys(testProgramEntryPoints), testSettings)) {
    // The portal's server modules import "server-only", which throws under plain Node: the harness bundles its empty
    // module, as Next's server build and the tests' alias (vitest.config.ts) resolve it.
    await buildInto("dist/test", { ...offersBuildOptions, entryPoints: testProgramEntryPoints, alias: { "server-only": "./node_modules/server-only/empty.js" } });
  }
}
