// The history of one component (its audit entries, newest first), for the component page. The page
// reads them (every signed-in viewer of the page sees its history, while GET /api/audit stays
// admin-only); null when they could not be read.
import { Card } from "@/components/ui";
import type { AuditEntry } from "@/lib/portal/audit-shapes";
import { AuditEntryView } from "./audit-entry";
import styles from "./audit.module.css";

export function HistoryPanel({ entries, limit }: { entries: AuditEntry[] | null; limit: number }) {
  return (
    <Card title="History" data-testid="history-panel">
      {entries === null ? <p className="muted">The history cannot be shown right now.</p> : null}
      {entries && entries.length === 0 ? <p className="muted">No change recorded through the portal yet.</p> : null}
      {entries && entries.length > 0 ? (
        <ol className={styles.entries}>
          {entries.map((e) => (
            <li key={e.id}>
              <AuditEntryView entry={e} showTarget={e.targetType !== "component"} />
            </li>
          ))}
        </ol>
      ) : null}
      {entries && entries.length >= limit ? <p className="muted">Showing the latest {limit} changes.</p> : null}
    </Card>
  );
}
