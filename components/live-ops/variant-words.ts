// What the per-variant results say to people: the claim rate's difference against the first variant,
// its 95% interval, and whether that is likely a result or likely noise. Pure: no React.
import type { DefinitionFunnel } from "./api";
import { formatPoints } from "./format";

type Comparison = DefinitionFunnel["comparisons"][number];

/** "+5.2 points (95% interval −1.0 to +11.4 points)"; null when there is nothing to compare yet. */
export function differenceText(c: Comparison): string | null {
  if (c.difference === null || c.low === null || c.high === null) return null;
  return `${formatPoints(c.difference)} (95% interval ${formatPoints(c.low)} to ${formatPoints(c.high)})`;
}

/**
 * Whether a variant's difference is likely real, in one sentence. `unseen` names the variants that have
 * not surfaced for anyone (when known), so the sentence names only those.
 */
export function verdict(c: Comparison, unseen?: ReadonlySet<string>): string {
  if (c.difference === null || c.low === null || c.high === null) {
    const missing = unseen ? [c.variantId, c.baselineId].filter((id) => unseen.has(id)) : [];
    if (missing.length === 1) return `Not enough data yet: ${missing[0]} has not surfaced for anyone.`;
    if (missing.length === 2) return `Not enough data yet: neither ${c.variantId} nor ${c.baselineId} has surfaced for anyone.`;
    return `Not enough data yet: ${c.variantId} or ${c.baselineId} has not surfaced for anyone.`;
  }
  if (c.significant) {
    const direction = c.difference > 0 ? "higher" : "lower";
    return `Likely a real difference: ${c.variantId} is claimed at a ${direction} rate than ${c.baselineId}, and the 95% interval does not include zero.`;
  }
  return `Likely noise: the 95% interval includes zero, so ${c.variantId} and ${c.baselineId} cannot be told apart yet.`;
}
