// The scorecard on an owner's page: each listed component's level in the table, and how the owner's
// components spread over the levels above it (the rollup lib/portal/scorecards.ts computes).
import { Badge } from "@/components/ui/badge";

export interface OwnerComponentLevel {
  level: string | null;
  passed: number;
  total: number;
}

export function OwnerLevels({ level }: { level: OwnerComponentLevel }) {
  return (
    <span data-testid="owner-level">
      {level.level ? <Badge tone="accent">{level.level}</Badge> : <span className="muted">none</span>}{" "}
      <span className="muted">
        {level.passed} of {level.total} rules
      </span>
    </span>
  );
}

export interface OwnerLevelRollup {
  components: number;
  levels: Record<string, number>;
  score: number | null;
}

/** "Scorecard: 2 gold, 1 silver, 3 with no level; 74 % of rules passed", highest level first. */
export function OwnerRollup({ rollup, levels }: { rollup: OwnerLevelRollup; levels: readonly string[] }) {
  if (rollup.components === 0) return null;
  const parts = [...levels]
    .reverse()
    .filter((l) => (rollup.levels[l] ?? 0) > 0)
    .map((l) => `${rollup.levels[l]} ${l}`);
  const none = rollup.levels.none ?? 0;
  if (none > 0) parts.push(`${none} with no level`);
  return (
    <p data-testid="owner-scorecard-rollup">
      Scorecard: {parts.join(", ")}
      {rollup.score === null ? "" : `; ${Math.round(rollup.score * 100)} % of rules passed`}.
    </p>
  );
}
