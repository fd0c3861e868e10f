/** Completion trackers: pure arithmetic over a snapshot's currency `out` counters. */
import type { CompletionCondition, CompletionTrackers } from "../contract";
import type { PlayerRow } from "./types";

/** Tracker key of each condition: its kind, or `kind:id` when the offer has two of that kind. */
export function trackerKeys(conditions: CompletionCondition[]): string[] {
  return conditions.map((c) => (conditions.filter((o) => o.kind === c.kind).length > 1 ? `${c.kind}:${c.id}` : c.kind));
}

function currencyOut(snapshot: Pick<PlayerRow, "currencies"> | undefined, currencyId: string): number {
  return snapshot?.currencies?.[currencyId]?.out ?? 0;
}

/** Progress of each condition, capped at its amount, measured from the baseline taken at surfacing. */
export function computeTrackers(
  conditions: CompletionCondition[],
  baseline: Record<string, number>,
  snapshot: Pick<PlayerRow, "currencies"> | undefined,
): { trackers: CompletionTrackers; complete: boolean } {
  const keys = trackerKeys(conditions);
  const trackers: CompletionTrackers = {};
  let complete = true;
  conditions.forEach((condition, i) => {
    const key = keys[i];
    let progress = 0;
    if (condition.kind === "spendCurrency") {
      progress = Math.max(0, currencyOut(snapshot, condition.id) - (baseline[key] ?? 0));
    }
    progress = Math.min(progress, condition.amount);
    trackers[key] = progress;
    if (progress < condition.amount) complete = false;
  });
  return { trackers, complete };
}

export function baselineFor(conditions: CompletionCondition[] | null, snapshot: PlayerRow | undefined): Record<string, number> {
  if (!conditions?.length) return {};
  const keys = trackerKeys(conditions);
  const baseline: Record<string, number> = {};
  conditions.forEach((c, i) => {
    baseline[keys[i]] = currencyOut(snapshot, c.id);
  });
  return baseline;
}

export function zeroTrackers(conditions: CompletionCondition[] | null): CompletionTrackers {
  const out: CompletionTrackers = {};
  if (conditions) for (const key of trackerKeys(conditions)) out[key] = 0;
  return out;
}
