// The history of one component (its audit entries, newest first), for the component page. A server
// component: it reads the audit log directly, so every signed-in viewer of the page sees its history
// while GET /api/audit (all entries, any filter) stays admin-only.
import { Card } from "@/components/ui";
import { getPortalDb } from "@/lib/portal/db";
import { listAudit, type AuditEntry } from "@/lib/portal/audit";
import { AuditEntryView } from "./audit-entry";

export async function HistoryPanel({ name, limit = 20 }: { name: string; limit?: number }) {
  let entries: AuditEntry[] | null = null;
  try {
    const { db } = await getPortalDb();
    entries = (await listAudit(db, { component: name, limit })).entries;
  } catch (e) {
    console.error(`[portal] history of ${name}: ${(e as Error).message}`);
  }
  return (
    <Card title="History" data-testid="history-panel">
      {entries === null ? <p className="muted">The history cannot be shown right now.</p> : null}
      {entries && entries.length === 0 ? <p className="muted">No change recorded through the portal yet.</p> : null}
      {entries && entries.length > 0 ? (
        <ol style={{ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: "0.75rem" }}>
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
