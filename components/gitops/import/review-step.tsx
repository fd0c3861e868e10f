"use client";
// Step 3 of the import wizard: the inferred record of each repository (a dry run of its own, so
// progress shows per repository), its kind editable.
import type { FormEvent } from "react";
import { useQueries } from "@tanstack/react-query";
import { useFormContext, useWatch } from "react-hook-form";
import { Alert, Badge, Button, Card, Select, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { COMPONENT_KINDS, type ComponentKind } from "@/lib/catalog/schema";
import { importComponents, type ImportResult } from "../api";
import type { ImportForm } from "./import-form";
import { Working } from "./working";
import styles from "../gitops.module.css";

function RecordSummary({ result }: { result: ImportResult }) {
  const spec = result.component?.spec;
  if (!spec) return null;
  return (
    <div className={styles.lines}>
      <span>Owners: {spec.owners.map((o) => (o.group ? `${o.user} (${o.group})` : o.user)).join(", ")}</span>
      <span>Environments: {spec.environments.length ? spec.environments.join(", ") : <span className="muted">none</span>}</span>
      {result.reasons.length ? (
        <ul className={styles.reasons}>
          {result.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function ReviewStep({ onBack, onImport }: { onBack: () => void; onImport: (event?: FormEvent) => void }) {
  const { control, setValue } = useFormContext<ImportForm>();
  const repositories = useWatch({ control, name: "repositories" });
  const previews = useQueries({
    queries: repositories.map(({ path, kind }) => ({
      queryKey: ["import", "preview", path, kind || null],
      queryFn: async () => (await importComponents([kind ? { path, kind } : path], true)).results[0],
      staleTime: 60_000,
      retry: false,
    })),
  });
  const done = previews.filter((p) => !p.isPending).length;
  const ready = previews.filter((p) => p.data?.status === "ready").length;
  return (
    <Card title="Review the inferred records">
      <form className="stack" onSubmit={onImport} noValidate>
        <p className={`muted ${styles.flush}`}>
          {done < repositories.length ? `Inferring ${done + 1} of ${repositories.length}…` : `${ready} of ${repositories.length} ready to import.`} Pick another kind where the inference is wrong.
        </p>
        <Table label="Inferred records" data-testid="import-review">
          <TableHeader>
            <TableRow>
              <TableHead>Repository</TableHead>
              <TableHead>Component</TableHead>
              <TableHead>Kind</TableHead>
              <TableHead>Record</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {repositories.map(({ path }, i) => {
              const p = previews[i];
              const r = p.data;
              return (
                <TableRow key={path} data-testid={`review-${path}`}>
                  <TableCell>
                    <code>{path}</code>
                  </TableCell>
                  {p.isPending ? (
                    <TableCell colSpan={3}>
                      <Working text="inferring…" />
                    </TableCell>
                  ) : p.isError ? (
                    <TableCell colSpan={3}>
                      <Alert tone="error">{describeApiError(p.error)}</Alert>
                    </TableCell>
                  ) : r && r.status === "ready" ? (
                    <>
                      <TableCell>{r.name}</TableCell>
                      <TableCell>
                        <Select aria-label={`Kind of ${path}`} value={r.kind ?? ""} onChange={(e) => setValue(`repositories.${i}.kind`, e.target.value as ComponentKind)} data-testid={`kind-${path}`}>
                          {COMPONENT_KINDS.map((k) => (
                            <option key={k} value={k}>
                              {k}
                              {k === r.inferredKind ? " (inferred)" : ""}
                            </option>
                          ))}
                        </Select>
                      </TableCell>
                      <TableCell>
                        <RecordSummary result={r} />
                      </TableCell>
                    </>
                  ) : r ? (
                    <TableCell colSpan={3}>
                      {r.status === "exists" ? <Badge tone="success">in catalog</Badge> : <Badge tone="danger">{r.status}</Badge>} {r.message}
                    </TableCell>
                  ) : null}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
        <div className="row">
          <Button variant="ghost" onClick={onBack}>
            Back
          </Button>
          <Button type="submit" variant="primary" disabled={done < repositories.length || ready === 0} data-testid="start-import">
            Import {ready || ""} {ready === 1 ? "repository" : "repositories"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
