/**
 * Scorecard figures of the catalog benchmark (run.ts step 4), on the catalog opened there:
 * - recompute after a commit: another writer changes 100 records (the owners of some), the catalog
 *   refreshes; the figure is the whole refresh (git diff, re-read, re-index, re-score), of which the
 *   re-scoring is the changed records only (target < 2 s at 100,000);
 * - recompute after a rules commit: scorecards/rules.yaml changes, every record is scored again (same target);
 * - the list filtered by level (and sorted by level), uncached: p50 (target < 20 ms at 10,000).
 * The generated records have no description nor lifecycle, so the bench commits rules that spread them
 * over the levels (production, two owners, API docs) rather than leaving them all at none.
 */
import { stringify } from "yaml";
import type { Catalog } from "../../lib/catalog/catalog";
import { listQuerySchema } from "../../lib/catalog/query";
import { SCORECARD_RULES_FILE } from "../../lib/catalog/scorecards";
import type { ConfigRepo } from "../../lib/catalog/repo";
import { commitAsOther } from "../../test-support/catalog/temp-catalog";
import type { BenchResults } from "../lib/results";
import { generateComponent } from "./generate";

const TARGET_RECOMPUTE_MS = 2000;
const TARGET_FILTER_P50_MS = 20;
const CHANGED = 100;

const rules = (minOwners: number) => `levels: [bronze, silver, gold]
rules:
  - { id: production, title: Runs in production, level: bronze, check: { type: environment, environment: production } }
  - { id: owners, title: Owners, level: silver, check: { type: minOwners, count: ${minOwners} } }
  - { id: api-docs, title: Services document their APIs, level: gold, check: { type: providesApis, kinds: [service] } }
`;

type Line = (label: string, value: string, target: string, ok: boolean | null) => void;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timedRefresh(catalog: Catalog): Promise<{ ms: number; evaluated: number }> {
  const before = catalog.scorecards.evaluations;
  const s = performance.now();
  await catalog.refresh({ pull: false });
  return { ms: performance.now() - s, evaluated: catalog.scorecards.evaluations - before };
}

export async function scorecardFigures(catalog: Catalog, repo: ConfigRepo, count: number, line: Line, note: (text: string) => void, results: BenchResults): Promise<void> {
  // The rules the levels are measured under (every record scored: the rules-change figure).
  await commitAsOther(repo.dir, { [SCORECARD_RULES_FILE]: rules(2) }, "Scorecard rules for the benchmark");
  const rulesChange = await timedRefresh(catalog);

  // 100 records change owners; only those are scored again.
  const changes: Record<string, string> = {};
  for (let i = 0; i < CHANGED; i++) {
    const c = generateComponent(i * Math.floor(count / CHANGED) + 1);
    c.spec.owners = [...c.spec.owners, { user: "bench-extra-owner" }];
    changes[`${repo.componentsSubdir ? `${repo.componentsSubdir}/` : ""}${c.metadata.name}.yaml`] = `# Generated for the catalog benchmark.\n${stringify(c)}`;
  }
  await commitAsOther(repo.dir, changes, "100 records changed owners");
  const recordChange = await timedRefresh(catalog);

  line(`scorecard recompute after a commit of ${CHANGED} records`, `${recordChange.ms.toFixed(0)} ms`, `< ${TARGET_RECOMPUTE_MS} ms`, recordChange.ms < TARGET_RECOMPUTE_MS);
  note(`the whole refresh; ${recordChange.evaluated} records scored again`);
  line(`scorecard recompute after a rules commit`, `${rulesChange.ms.toFixed(0)} ms`, `< ${TARGET_RECOMPUTE_MS} ms`, rulesChange.ms < TARGET_RECOMPUTE_MS);
  note(`the whole refresh; ${rulesChange.evaluated} records scored again`);
  results
    .record("scorecard_recompute_after_commit", recordChange.ms, "ms", { text: `< ${TARGET_RECOMPUTE_MS}`, met: recordChange.ms < TARGET_RECOMPUTE_MS })
    .record("scorecard_recompute_after_rules_commit", rulesChange.ms, "ms", { text: `< ${TARGET_RECOMPUTE_MS}`, met: rulesChange.ms < TARGET_RECOMPUTE_MS });

  const queries = ["level=gold", "level=none", "level=bronze,silver", "level=silver&sort=displayName", "level=gold&kind=service", "sort=level&order=desc", "level=bronze&q=offers"];
  const times: number[] = [];
  for (let round = 0; round < 200; round++) {
    for (const q of queries) {
      const query = listQuerySchema.parse(Object.fromEntries(new URLSearchParams(q)));
      catalog.clearQueryCache();
      const s = performance.now();
      catalog.list(query);
      times.push(performance.now() - s);
    }
  }
  times.sort((a, b) => a - b);
  const p50 = pct(times, 50);
  line(`catalog filtered by level p50 (uncached)`, `${p50.toFixed(2)} ms`, `< ${TARGET_FILTER_P50_MS} ms`, p50 < TARGET_FILTER_P50_MS);
  line(`catalog filtered by level p99 (uncached)`, `${pct(times, 99).toFixed(2)} ms`, "", null);
  const levels = catalog.levelRollup().levels;
  note(`levels: ${Object.entries(levels).map(([l, n]) => `${l} ${n}`).join(", ")}`);
  results.record("list_filtered_by_level_p50", p50, "ms", { text: `< ${TARGET_FILTER_P50_MS}`, met: p50 < TARGET_FILTER_P50_MS }).record("list_filtered_by_level_p99", pct(times, 99), "ms");
}
