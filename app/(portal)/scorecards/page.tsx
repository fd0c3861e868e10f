// Scorecards: the rules in force (scorecards/rules.yaml of the config repository), the catalog's components
// per level, and for operators the rules file to change by review.
import type { Metadata } from "next";
import { hasRole } from "@/lib/portal/authorize";
import { requireUser } from "@/lib/portal/session";
import { getPortalServices } from "@/lib/portal/services";
import { scorecardOverview } from "@/lib/portal/scorecards";
import { committedScorecardRules } from "@/lib/portal/scorecard-rules";
import { checkInWords, NO_LEVEL, SCORECARD_RULES_FILE } from "@/lib/catalog/scorecards";
import { Card, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import { Link } from "@/components/ui/link";
import { RulesEditor } from "@/components/scorecards/rules-editor";
import { stringify } from "yaml";

export const metadata: Metadata = { title: "Scorecards" };
export const dynamic = "force-dynamic";

export default async function ScorecardsPage() {
  const user = await requireUser("/scorecards");
  const catalog = await getPortalServices().catalog();
  const { rules, rollup, commit } = scorecardOverview(catalog);
  const operator = hasRole(user, "operator");
  const { text } = operator ? await committedScorecardRules(catalog) : { text: null };
  return (
    <div className="stack">
      <h1>Scorecards</h1>
      <p className="muted">
        The rules live in <code>{SCORECARD_RULES_FILE}</code> of the config repository and change by review. A component reaches a level when every rule of that level and of
        every lower one passes.{commit ? ` Computed at commit ${commit.slice(0, 12)}.` : ""}
      </p>
      <Card title="Components per level">
        <ul className="row plain-list" data-testid="level-counts">
          {[NO_LEVEL, ...rules.levels].map((level) => (
            <li key={level} data-testid={`level-count-${level}`}>
              <Link href={`/catalog?level=${level}`}>{level}</Link>: {rollup.levels[level] ?? 0}
            </li>
          ))}
        </ul>
      </Card>
      <Card title="Rules in force">
        <Table label="Scorecard rules in force" stackOnNarrow>
          <TableHeader>
            <TableRow>
              <TableHead>Rule</TableHead>
              <TableHead>Level</TableHead>
              <TableHead>Check</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rules.rules.map((r) => (
              <TableRow key={r.id} data-testid={`rule-${r.id}`}>
                <TableCell label="Rule">{r.title}</TableCell>
                <TableCell label="Level">{r.level}</TableCell>
                <TableCell label="Check">{checkInWords(r.check)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
      {operator ? (
        <Card title="Change the rules">
          <RulesEditor file={SCORECARD_RULES_FILE} initialText={text ?? stringify(rules)} />
        </Card>
      ) : null}
    </div>
  );
}
