"use client";
// Step 3 of the order wizard: what sending the order does, the resources it requests, and what is still wrong.
import { Alert, Card } from "@/components/ui";
import type { FieldIssue } from "@/lib/catalog/schema";
import type { resourcesOf } from "@/lib/portal/app-orders/model";
import { DEPENDENCY_LABELS } from "./order-form";
import s from "../app-orders.module.css";

export function ReviewStep({ resources, issues, failure }: { resources: ReturnType<typeof resourcesOf>; issues: FieldIssue[]; failure: string | null }) {
  return (
    <Card title="Review">
      <p className="muted">
        Sending the order opens a merge request in the config repository that adds this record
        {resources.length ? ` and ${resources.length} resource request${resources.length === 1 ? "" : "s"}` : ""}. A lead approves (merges) or rejects it.
      </p>
      {resources.length ? (
        <ul data-testid="order-resources">
          {resources.map((r) => (
            <li key={`${r.environment}-${r.resource}`}>
              {DEPENDENCY_LABELS[r.resource]} in {r.environment ?? "every environment"}
            </li>
          ))}
        </ul>
      ) : null}
      {issues.length ? (
        <Alert tone="error" data-testid="order-issues">
          <ul className={s.issues}>
            {issues.map((i, n) => (
              <li key={n}>
                {i.path ? <code>{i.path}</code> : null} {i.message}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {failure ? <Alert tone="error">{failure}</Alert> : null}
    </Card>
  );
}
