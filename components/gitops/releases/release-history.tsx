// The releases of one environment, newest first, with the version it runs now.
import { Badge, Card, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import type { Release, ReleaseEnvironment } from "../api";
import { when } from "../relative-time";

export function ReleaseHistory({ environment, releases }: { environment: ReleaseEnvironment; releases: Release[] }) {
  const current = releases[0];
  return (
    <Card
      title={
        <>
          {environment}{" "}
          {current ? (
            <Badge tone="success" data-testid={`current-${environment}`}>
              {current.version}
            </Badge>
          ) : (
            <Badge data-testid={`current-${environment}`}>nothing released</Badge>
          )}
        </>
      }
    >
      {releases.length === 0 ? (
        <p className="muted">No releases to {environment} yet.</p>
      ) : (
        <Table label={`Releases to ${environment}`} data-testid={`history-${environment}`}>
          <TableHeader>
            <TableRow>
              <TableHead>Version</TableHead>
              <TableHead>By</TableHead>
              <TableHead>When</TableHead>
              <TableHead>Commit</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {releases.map((r) => (
              <TableRow key={r.id}>
                <TableCell>
                  {r.version}{" "}
                  {r.releaseType !== "promote" ? (
                    <span className="muted" title={`from ${r.sourceRef}`}>
                      {r.releaseType}
                    </span>
                  ) : null}
                </TableCell>
                <TableCell>{r.releasedBy}</TableCell>
                <TableCell title={r.releasedAt}>{when(r.releasedAt)}</TableCell>
                <TableCell>
                  <code title={`${r.commitSha} (tag ${r.tag})`}>{r.commitSha.slice(0, 8)}</code>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}
