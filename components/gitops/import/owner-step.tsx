"use client";
// Step 1 of the import wizard: whose repositories (groups and users of source control).
import { useQuery } from "@tanstack/react-query";
import { Alert, Card } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { fetchOwners } from "../api";
import styles from "../gitops.module.css";

export function OwnerStep({ owner, onPick }: { owner: string | null; onPick: (owner: string) => void }) {
  const owners = useQuery({ queryKey: ["import", "owners"], queryFn: ({ signal }) => fetchOwners(signal) });
  return (
    <Card title="Whose repositories?">
      {owners.isPending ? <p className="muted">Loading owners…</p> : null}
      {owners.isError ? <Alert tone="error">The owners cannot be listed: {describeApiError(owners.error)}</Alert> : null}
      {owners.data ? (
        owners.data.owners.length === 0 ? (
          <p className="muted">Source control lists no groups or users.</p>
        ) : (
          <div className={styles.switcher} role="group" aria-label="Owner">
            {owners.data.owners.map((o) => (
              <button key={o.path} type="button" className={styles.pill} aria-pressed={o.path === owner} onClick={() => onPick(o.path)} data-testid={`owner-${o.path}`}>
                {o.path} <span className="muted">{o.kind}</span>
              </button>
            ))}
          </div>
        )
      ) : null}
    </Card>
  );
}
