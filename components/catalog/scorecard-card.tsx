// A component's scorecard on its page: the level reached, each rule passed or failed and why, and the
// level per day (a chart, with the figures as a table). The rules live in the config repository.
import { Badge, Card, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import type { ComponentScorecard } from "@/lib/catalog/scorecards";
import { ScorecardTrendChart } from "./scorecard-trend-chart";
import styles from "./catalog.module.css";

export interface ScorecardTrendPoint {
  day: string;
  level: string | null;
  rank: number;
  passed: number;
  total: number;
}

const outcome = (passed: boolean | null) => (passed === null ? "Does not apply" : passed ? "Passed" : "Failed");

export function ScorecardCard({ scorecard, levels, trend }: { scorecard: ComponentScorecard; levels: readonly string[]; trend: ScorecardTrendPoint[] | null }) {
  return (
    <Card title="Scorecard" data-testid="component-scorecard">
      <p>
        Level:{" "}
        <span data-testid="scorecard-level">{scorecard.level ? <Badge tone="accent">{scorecard.level}</Badge> : "none (a rule of the lowest level fails)"}</span>{" "}
        <span className="muted" data-testid="scorecard-score">
          {scorecard.passed} of {scorecard.total} rules passed
        </span>
      </p>
      <Table label="Scorecard rules" stackOnNarrow>
        <TableHeader>
          <TableRow>
            <TableHead>Rule</TableHead>
            <TableHead>Level</TableHead>
            <TableHead>Outcome</TableHead>
            <TableHead>Why</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {scorecard.results.map((r) => (
            <TableRow key={r.id} data-testid={`scorecard-rule-${r.id}`}>
              <TableCell label="Rule">{r.title}</TableCell>
              <TableCell label="Level">{r.level}</TableCell>
              <TableCell label="Outcome">
                <Badge tone={r.passed === null ? "neutral" : r.passed ? "success" : "danger"}>{outcome(r.passed)}</Badge>
              </TableCell>
              <TableCell label="Why" className={styles.sub}>{r.why}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <h3>Level per day</h3>
      {trend === null ? (
        <p className="muted">The trend could not be read from the portal database.</p>
      ) : trend.length === 0 ? (
        <p className="muted" data-testid="scorecard-trend-empty">
          No daily snapshot yet: the first is taken today.
        </p>
      ) : (
        <>
          <ScorecardTrendChart points={trend} levels={levels} />
          <Table label="Scorecard level per day" data-testid="scorecard-trend">
            <TableHeader>
              <TableRow>
                <TableHead>Day (UTC)</TableHead>
                <TableHead>Level</TableHead>
                <TableHead>Rules passed</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {trend.map((p) => (
                <TableRow key={p.day}>
                  <TableCell>{p.day}</TableCell>
                  <TableCell>{p.level ?? "none"}</TableCell>
                  <TableCell>
                    {p.passed} of {p.total}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </Card>
  );
}
