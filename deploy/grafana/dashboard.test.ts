/**
 * The Grafana dashboard and the alert table of docs/operations/observability.md name only metrics the services
 * export: a renamed or removed metric fails here rather than leaving an empty panel or a silent alert.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { registry as offersRegistry } from "../../lib/offers/metrics";
import { portalMetrics } from "../../lib/portal/metrics";

const METRIC_NAME = /\b(?:offers|portal|process|nodejs)_[a-z0-9_]*[a-z0-9]\b/g;
const SERIES_SUFFIX = /_(bucket|count|sum)$/;

async function exported(): Promise<Set<string>> {
  const metrics = [...(await offersRegistry.getMetricsAsJSON()), ...(await portalMetrics().registry.getMetricsAsJSON())];
  return new Set(metrics.map((m) => m.name));
}

/** A name as a query writes it, back to its family (a histogram's _bucket, _count and _sum series). */
const familyOf = (name: string, known: Set<string>) => (known.has(name) ? name : name.replace(SERIES_SUFFIX, ""));

function namesIn(text: string): string[] {
  return [...new Set(text.match(METRIC_NAME) ?? [])];
}

describe("dashboard and alerts", () => {
  it("the dashboard's queries use only exported metrics", async () => {
    const known = await exported();
    const dashboard = JSON.parse(readFileSync("deploy/grafana/offers-dashboard.json", "utf8")) as { panels: { title: string; targets: { expr: string }[] }[] };
    const names = dashboard.panels.flatMap((p) => p.targets.flatMap((t) => namesIn(t.expr)));
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => !known.has(familyOf(n, known)))).toEqual([]);
  });

  it("the alert table of docs/operations/observability.md names only exported metrics", async () => {
    const known = await exported();
    const doc = readFileSync("docs/operations/observability.md", "utf8");
    const start = doc.indexOf("**What to alert on**");
    expect(start).toBeGreaterThan(0);
    const table = doc.slice(start, doc.indexOf("\n\n", doc.indexOf("| Metric |", start)));
    const names = namesIn(table);
    expect(names.length).toBeGreaterThan(8);
    expect(names.filter((n) => !known.has(familyOf(n, known)))).toEqual([]);
  });
});
