/**
 * The one process-wide registry of lib/db (globalThis.__pgliteInstances), on purpose: PGlite allows
 * one instance per data directory per process (a second one on the same files corrupts them), and
 * Next's dev server reloads modules, so the registry must outlive a module instance. It holds no
 * service: which database a service uses is decided by its own wiring (e.g. lib/portal/services.ts).
 */
import { PGlite } from "@electric-sql/pglite";
import { mkdirSync } from "node:fs";
import path from "node:path";

type PgliteRegistry = Map<string, Promise<PGlite>>;
const globalForPglite = globalThis as unknown as { __pgliteInstances?: PgliteRegistry };

/** One PGlite per data directory per process: dev reloads must not open a second one on the same files. */
export function sharedPglite(dataDir: string): Promise<PGlite> {
  const registry = (globalForPglite.__pgliteInstances ??= new Map());
  const key = path.resolve(dataDir);
  let instance = registry.get(key);
  if (!instance) {
    mkdirSync(key, { recursive: true });
    instance = PGlite.create(key);
    registry.set(key, instance);
  }
  return instance;
}

/** Drops the data directory's instance from the registry (it is being closed): the next open starts a new one. */
export function forgetSharedPglite(dataDir: string): void {
  globalForPglite.__pgliteInstances?.delete(path.resolve(dataDir));
}
