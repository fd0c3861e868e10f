/**
 * What a load or a restart spends linking relations: RelationIndex.sync of generated records (the
 * catalog bench's records, with their systems, dependencies and APIs) into an empty index, in process,
 * the median of 9 runs after a GC each. No target of its own: it is a part of the cold load and the
 * restart (bench/catalog/run.ts, < 5 s and < 3 s at 100,000).
 *
 *   node --expose-gc --conditions=react-server --import tsx bench/catalog/relations-sync.ts [--count 100000]
 *
 * The figure is appended to bench/results/catalog-relations-sync.tsv.
 */
import { RelationIndex } from "../../lib/catalog/relations";
import { BenchResults } from "../lib/results";
import { generateComponent } from "./generate";

const args = process.argv.slice(2);
const count = Number(args[args.indexOf("--count") + 1] || 0) || 100_000;
const RUNS = 9;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc: each run starts after a GC");

const records = Array.from({ length: count }, (_, i) => {
  const component = generateComponent(i);
  return { name: component.metadata.name, file: `components/${component.metadata.name}.yaml`, component };
});
const times: number[] = [];
for (let run = 0; run < RUNS; run++) {
  gc();
  const started = performance.now();
  new RelationIndex().sync(records);
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(RUNS / 2)];
console.log(`relations linked for ${count} records: median ${median.toFixed(0)} ms of ${RUNS} (min ${times[0].toFixed(0)}, max ${times[RUNS - 1].toFixed(0)})`);
new BenchResults("catalog-relations-sync", { records: count }).record("relations_sync", median, "ms").record("relations_sync_min", times[0], "ms").record("relations_sync_max", times[RUNS - 1], "ms").save();
