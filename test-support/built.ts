/**
 * The built programs system tests start as processes (tests/setup/built-service.ts builds them once
 * before the system tier runs): the offers service as `npm run start:offers` starts it, and test
 * programs of the portal's code bundled the same way, so no child process compiles TypeScript.
 */
import path from "node:path";

/** node's arguments for the built offers service (dist/offers/main.mjs); `tracing` preloads its OpenTelemetry start. */
export function builtOffersServiceArgs({ tracing = false } = {}): string[] {
  const dist = path.resolve("dist/offers");
  return [...(tracing ? ["--import", path.join(dist, "tracing.mjs")] : []), path.join(dist, "main.mjs")];
}

/** The bundle of a test program in dist/test (see testProgramEntryPoints in tests/setup/built-service.ts). */
export function builtTestProgram(name: "crash-harness"): string {
  return path.resolve("dist/test", `${name}.mjs`);
}
