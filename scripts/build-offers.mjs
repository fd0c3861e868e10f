// Bundles the offers service (server and CLI) into dist/offers with esbuild; npm packages stay
// external and are loaded from node_modules. Migrations are read from lib/offers/db/migrations.
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { offersBuildOptions } from "./offers-build-options.mjs";

rmSync("dist/offers", { recursive: true, force: true });
await build({ ...offersBuildOptions, outdir: "dist/offers", logLevel: "info" });
