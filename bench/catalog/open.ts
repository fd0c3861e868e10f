/**
 * One portal start, as far as the catalog goes, in a process of its own (run by run.ts):
 *   node --expose-gc --conditions=react-server --import tsx bench/catalog/open.ts <dataDir> <shippedDir> [--no-snapshot]
 * Opens the catalog as openCatalog() does for lib/portal/services.ts (the snapshot read while the
 * repository is recovered, then the load, from the snapshot when there is one), writes the snapshot, and prints one line of JSON with the timings, how the
 * records were loaded and the heap they take; then one search of a word, the first after the start (it
 * builds what the search keeps per state of the catalog, its trigram index included), its time and the
 * heap after it. Timings start after the modules are loaded.
 */
import { Catalog } from "../../lib/catalog/catalog";
import { ensureConfigRepo } from "../../lib/catalog/repo";
import { listQuerySchema } from "../../lib/catalog/query";
import { snapshotFileFor } from "../../lib/catalog/snapshot";

const [dataDir, shippedDir] = process.argv.slice(2);
const snapshot = !process.argv.includes("--no-snapshot");
const gc = (globalThis as { gc?: () => void }).gc;

async function main() {
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  // Typed arrays (the search's trigram index) keep their bytes outside the heap.
  const heldBefore = heapBefore + process.memoryUsage().arrayBuffers;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const repo = await ensureConfigRepo({ dataDir, shippedDir });
  const catalog = new Catalog({ repo, ...(snapshot ? { snapshotFile: snapshotFileFor(repo.dir) } : {}) });
  catalog.prefetchSnapshot();
  await catalog.recover();
  const recovered = performance.now();
  const summary = await catalog.refresh({ pull: false });
  const loaded = performance.now();
  const cpu = process.cpuUsage(cpuBefore);
  await catalog.flushSnapshot();
  const saved = performance.now();
  gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  const searchStarted = performance.now();
  catalog.list(listQuerySchema.parse({ q: "checkout-api" }));
  const firstSearchMs = performance.now() - searchStarted;
  gc?.();
  const heldSearched = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  console.log(
    JSON.stringify({
      openMs: loaded - started,
      recoverMs: recovered - started,
      loadMs: loaded - recovered,
      /** CPU time of this process (not of git) until the catalog was loaded: steadier than wall time on a busy machine. */
      cpuMs: (cpu.user + cpu.system) / 1000,
      snapshotWriteMs: saved - loaded,
      source: catalog.lastLoad?.source,
      filesRead: catalog.lastLoad?.filesRead,
      components: summary.components,
      errors: summary.errors.length,
      heapBytes: heapAfter - heapBefore,
      heldSearchedBytes: heldSearched - heldBefore,
      firstSearchMs,
      rssBytes: process.memoryUsage().rss,
      measuredGc: Boolean(gc),
    }),
  );
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
