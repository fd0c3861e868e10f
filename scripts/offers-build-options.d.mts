import type { BuildOptions } from "esbuild";

export declare const offersBuildOptions: BuildOptions;
