// The releases of one environment, newest first, with the version it runs now.
import { Badge, Card } from "@/components/ui";
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
        <table className="ui-table" data-testid={`history-${environment}`}>
          <thead>
            <tr>
              <th>Version</th>
              <th>By</th>
              <th>When</th>
              <th>Commit</th>
            </tr>
          </thead>
          <tbody>
            {releases.map((r) => (
              <tr key={r.id}>
                <td>
                  {r.version}{" "}
                  {r.releaseType !== "promote" ? (
                    <span className="muted" title={`from ${r.sourceRef}`}>
                      {r.releaseType}
                    </span>
                  ) : null}
                </td>
                <td>{r.releasedBy}</td>
                <td title={r.releasedAt}>{when(r.releasedAt)}</td>
                <td>
                  <code title={`${r.commitSha} (tag ${r.tag})`}>{r.commitSha.slice(0, 8)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
