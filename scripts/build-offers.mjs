// Bundles the offers service (server and CLI) into dist/offers with esbuild; npm packages stay
// external and are loaded from node_modules. Migrations are read from lib/offers/db/migrations.
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { offersBuildOptions } from "./offers-build-options.mjs";

rmSync("dist/offers", { recursive: true, force: true });
const { metafile } = await build({ ...offersBuildOptions, outdir: "dist/offers", logLevel: "info", metafile: true });
// Test support never ships: lint keeps production code from importing test-support/, and this refuses a bundle that does.
const testSupport = Object.keys(metafile.inputs).filter((input) => input.startsWith("test-support/"));
if (testSupport.length > 0) {
  rmSync("dist/offers", { recursive: true, force: true });
  throw new Error(`The offers bundle would ship test support: ${testSupport.join(", ")}`);
}
