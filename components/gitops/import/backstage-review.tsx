"use client";
// Step 3 of the import wizard when reading Backstage's catalog-info.yaml: each repository's preview (a dry run of its
// own), a record per Component entity, and the report of what did not map (per entity and field, in words) before
// the one merge request is opened.
import type { FormEvent } from "react";
import { useQueries } from "@tanstack/react-query";
import { useFormContext, useWatch } from "react-hook-form";
import { Alert, Badge, Button, Card, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { importComponents, type ImportResult, type UnmappedField } from "../api";
import type { ImportForm } from "./import-form";
import { Working } from "./working";
import styles from "../gitops.module.css";

function Relations({ result }: { result: ImportResult }) {
  const spec = result.component?.spec;
  if (!spec) return null;
  const apis = spec.providesApis?.map((a) => `${a.name} (${a.type}, ${a.path})`) ?? [];
  return (
    <div className={styles.lines}>
      <span>Owners: {spec.owners.map((o) => (o.group ? `${o.user} (${o.group})` : o.user)).join(", ")}</span>
      {spec.system ? <span>System: {spec.system}</span> : null}
      {spec.dependsOn?.length ? <span>Depends on: {spec.dependsOn.join(", ")}</span> : null}
      {apis.length ? <span>Provides: {apis.join(", ")}</span> : null}
      {spec.consumesApis?.length ? <span>Consumes: {spec.consumesApis.join(", ")}</span> : null}
    </div>
  );
}

function Unmapped({ notes }: { notes: UnmappedField[] }) {
  if (!notes.length) return <p className="muted">Everything in the Backstage entities mapped to the records.</p>;
  return (
    <Table label="Not mapped from Backstage" data-testid="import-unmapped">
      <TableHeader>
        <TableRow>
          <TableHead>Repository</TableHead>
          <TableHead>Entity</TableHead>
          <TableHead>Field</TableHead>
          <TableHead>What happened</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {notes.map((n, i) => (
          <TableRow key={`${n.repository}|${n.entity}|${n.field}|${i}`}>
            <TableCell>
              <code>{n.repository}</code>
            </TableCell>
            <TableCell>
              <code>{n.entity}</code>
            </TableCell>
            <TableCell>{n.field ? <code>{n.field}</code> : <span className="muted">all of it</span>}</TableCell>
            <TableCell>{n.message}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function BackstageReview({ onBack, onImport }: { onBack: () => void; onImport: (event?: FormEvent) => void }) {
  const { control } = useFormContext<ImportForm>();
  const repositories = useWatch({ control, name: "repositories" });
  const previews = useQueries({
    queries: repositories.map(({ path }) => ({
      queryKey: ["import", "preview", "backstage", path],
      queryFn: () => importComponents([path], true, "backstage"),
      staleTime: 60_000,
      retry: false,
    })),
  });
  const done = previews.filter((p) => !p.isPending).length;
  const results = previews.flatMap((p) => p.data?.results ?? []);
  const notes = previews.flatMap((p) => p.data?.unmapped ?? []);
  const ready = results.filter((r) => r.status === "ready").length;
  return (
    <Card title="Review the records read from Backstage">
      <form className="stack" onSubmit={onImport} noValidate>
        <p className={`muted ${styles.flush}`}>
          {done < repositories.length
            ? `Reading ${done + 1} of ${repositories.length}…`
            : `${ready} ${ready === 1 ? "component" : "components"} ready; ${notes.length} ${notes.length === 1 ? "field" : "fields"} did not map (listed below, and in the merge request).`}
        </p>
        <Table label="Records read from Backstage" data-testid="import-review">
          <TableHeader>
            <TableRow>
              <TableHead>Entity</TableHead>
              <TableHead>Component</TableHead>
              <TableHead>Record</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {repositories.map(({ path }, i) => {
              const p = previews[i];
              if (p.isPending || p.isError)
                return (
                  <TableRow key={path} data-testid={`review-${path}`}>
                    <TableCell>
                      <code>{path}</code>
                    </TableCell>
                    <TableCell colSpan={2}>{p.isPending ? <Working text="reading catalog-info.yaml…" /> : <Alert tone="error">{describeApiError(p.error)}</Alert>}</TableCell>
                  </TableRow>
                );
              return (p.data?.results ?? []).map((r, j) => (
                <TableRow key={`${path}|${r.entity ?? j}`} data-testid={`review-${r.name ?? r.entity ?? path}`}>
                  <TableCell>
                    <code>{r.entity ?? path}</code>
                    <div className="muted">{path}</div>
                  </TableCell>
                  {r.status === "ready" ? (
                    <>
                      <TableCell>
                        {r.name} <Badge tone="accent">{r.kind}</Badge>
                      </TableCell>
                      <TableCell>
                        <Relations result={r} />
                      </TableCell>
                    </>
                  ) : (
                    <TableCell colSpan={2}>
                      <Badge tone={r.status === "exists" ? "success" : "danger"}>{r.status === "exists" ? "in catalog" : r.status}</Badge> {r.message}
                    </TableCell>
                  )}
                </TableRow>
              ));
            })}
          </TableBody>
        </Table>
        <h3 className={styles.flush}>Not mapped</h3>
        {done < repositories.length ? <Working text="reading…" /> : <Unmapped notes={notes} />}
        <div className="row">
          <Button variant="ghost" onClick={onBack}>
            Back
          </Button>
          <Button type="submit" variant="primary" disabled={done < repositories.length || ready === 0} data-testid="start-import">
            Open the merge request ({ready} {ready === 1 ? "component" : "components"})
          </Button>
        </div>
      </form>
    </Card>
  );
}
