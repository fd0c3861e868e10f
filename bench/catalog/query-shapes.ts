/**
 * What an uncached list query costs the index, by shape, in process: the catalog bench's generated
 * records in a SearchIndex, each of its distinct queries (generate.ts: a word, a team with an
 * environment, a user with a kind, a group sorted by display name) answered with the cache cleared,
 * five rounds, the mean per query of the last four. No target of its own: it is the part of the HTTP
 * search's CPU a request (bench/catalog/run.ts --http, p50 < 30 ms at 100,000) that the index spends.
 *
 *   node --conditions=react-server --import tsx bench/catalog/query-shapes.ts [--count 100000]
 *
 * The figures are appended to bench/results/catalog-query-shapes.tsv.
 */
import { listQuerySchema } from "../../lib/catalog/query";
import { SearchIndex, type CatalogEntry } from "../../lib/catalog/search";
import { BenchResults } from "../lib/results";
import { distinctQueries, generateComponent } from "./generate";

const args = process.argv.slice(2);
const count = Number(args[args.indexOf("--count") + 1] || 0) || 100_000;
const ROUNDS = 5;

const entries: CatalogEntry[] = Array.from({ length: count }, (_, i) => {
  const component = generateComponent(i);
  const name = component.metadata.name;
  return { name, file: `components/${name}.yaml`, component, etag: `"${i}"`, stale: false };
});
const index = new SearchIndex();
index.replaceAll(entries);
const favorites = new Set([entries[1].name]);
const queries = distinctQueries().map((q) => ({ shape: shapeOf(q), query: listQuerySchema.parse({ pageSize: "25", ...Object.fromEntries(new URLSearchParams(q)) }) }));

function shapeOf(q: string): string {
  if (q.startsWith("group=")) return "group_sorted";
  if (q.includes("environment=")) return "team_environment";
  if (q.includes("kind=")) return "user_kind";
  return "word";
}

const spent = new Map<string, { ms: number; n: number }>();
for (let round = 0; round < ROUNDS; round++) {
  for (const { shape, query } of queries) {
    index.clearCache();
    const started = performance.now();
    index.list(query, favorites);
    const ms = performance.now() - started;
    // The first round builds what every query of this state shares (trigrams, columns, orders): not counted.
    if (round === 0) continue;
    const s = spent.get(shape) ?? { ms: 0, n: 0 };
    s.ms += ms;
    s.n += 1;
    spent.set(shape, s);
  }
}
const results = new BenchResults("catalog-query-shapes", { records: count });
let allMs = 0;
let all = 0;
for (const [shape, { ms, n }] of spent) {
  console.log(`${shape.padEnd(18)} ${(ms / n).toFixed(2)} ms a query (${n / (ROUNDS - 1)} queries)`);
  results.record(`${shape}_mean`, ms / n, "ms");
  allMs += ms;
  all += n;
}
console.log(`${"all".padEnd(18)} ${(allMs / all).toFixed(2)} ms a query, the mean over the ${queries.length} queries the HTTP bench sends`);
results.record("all_mean", allMs / all, "ms").save();
