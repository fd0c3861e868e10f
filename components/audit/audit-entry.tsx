// One audit entry: when, who, what, and (folded) the before/after summary. No hooks: server and client both render it.
import type { AuditEntry } from "@/lib/portal/audit-shapes";
import styles from "./audit.module.css";

function Json({ value }: { value: unknown }) {
  return <pre className={styles.json}>{JSON.stringify(value, null, 2)}</pre>;
}

export function AuditEntryView({ entry, showTarget = true }: { entry: AuditEntry; showTarget?: boolean }) {
  const hasDetail = entry.before !== null || entry.after !== null;
  return (
    <div className={styles.entry} data-testid={`audit-entry-${entry.id}`}>
      <div>
        <time dateTime={entry.at} className="muted">
          {new Date(entry.at).toLocaleString()}
        </time>{" "}
        · <strong title={entry.actorName}>{entry.actor}</strong> · <code>{entry.action}</code>
        {showTarget ? (
          <>
            {" "}
            · {entry.targetType} <code>{entry.target}</code>
          </>
        ) : null}
      </div>
      <div>{entry.summary}</div>
      {hasDetail ? (
        <details>
          <summary className="muted">Before and after · request {entry.requestId}</summary>
          <div className={styles.beforeAfter}>
            <div>
              <div className="muted">Before</div>
              <Json value={entry.before} />
            </div>
            <div>
              <div className="muted">After</div>
              <Json value={entry.after} />
            </div>
          </div>
        </details>
      ) : null}
    </div>
  );
}
