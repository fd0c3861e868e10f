// A group's scorecard trend on its owner page: how many of its components reached each level per day (the daily
// snapshot, lib/portal/scorecards.ts groupTrend), as a chart and with the figures as a table.
import { Card, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import { GroupTrendChart } from "./group-trend-chart";

export interface GroupTrendPoint {
  day: string;
  /** Components per level that day, "none" (below every level) included. */
  levels: Record<string, number>;
  /** Rules passed over rules applying, that day (null with no rule applying). */
  score: number | null;
}

const NONE = "none";

/** The columns: no level, then today's levels lowest first, then any level only older days knew (rules change by review). */
export function trendLevels(points: readonly GroupTrendPoint[], levels: readonly string[]): string[] {
  const out = [NONE, ...levels.filter((l) => l !== NONE)];
  for (const p of points) for (const l of Object.keys(p.levels)) if (!out.includes(l)) out.push(l);
  return out;
}

export function GroupTrend({ group, points, levels }: { group: string; points: GroupTrendPoint[] | null; levels: readonly string[] }) {
  const columns = trendLevels(points ?? [], levels);
  return (
    <Card title="Scorecard per day" data-testid="group-trend-card">
      {points === null ? (
        <p className="muted">The trend could not be read from the portal database.</p>
      ) : points.length === 0 ? (
        <p className="muted" data-testid="group-trend-empty">
          No daily snapshot of {group} yet: the first is taken today.
        </p>
      ) : (
        <>
          <GroupTrendChart points={points} levels={columns} />
          <Table label={`Components of ${group} per scorecard level per day`} data-testid="group-trend">
            <TableHeader>
              <TableRow>
                <TableHead>Day (UTC)</TableHead>
                {columns.map((l) => (
                  <TableHead key={l}>{l === NONE ? "No level" : l}</TableHead>
                ))}
                <TableHead>Rules passed</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {points.map((p) => (
                <TableRow key={p.day}>
                  <TableCell>{p.day}</TableCell>
                  {columns.map((l) => (
                    <TableCell key={l}>{p.levels[l] ?? 0}</TableCell>
                  ))}
                  <TableCell>{p.score === null ? "—" : `${Math.round(p.score * 100)} %`}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </Card>
  );
}
