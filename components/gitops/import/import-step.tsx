"use client";
// Step 4 of the import wizard: one result per repository, with a link to the entry or the merge request.
import { Link } from "@/components/ui/link";
import { Alert, Badge, Button, Card, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import type { ImportAnswer, ImportResult } from "../api";
import { Working } from "./working";

function ResultCell({ result, answer }: { result: ImportResult; answer: ImportAnswer }) {
  switch (result.status) {
    case "imported":
      return (
        <>
          <Badge tone="success">imported</Badge> <Link href={`/catalog/${result.name}`} data-testid={`open-${result.name}`}>{`Open ${result.name} in the catalog`}</Link>
        </>
      );
    case "proposed":
      return (
        <>
          <Badge tone="accent">proposed</Badge> {result.name}{" "}
          {answer.mergeRequest?.webUrl ? (
            <a href={answer.mergeRequest.webUrl} target="_blank" rel="noreferrer">
              merge request !{answer.mergeRequest.iid}
            </a>
          ) : (
            <>in merge request !{answer.mergeRequest?.iid}</>
          )}
        </>
      );
    case "exists":
      return (
        <>
          <Badge tone="success">in catalog</Badge> {result.name ? <Link href={`/catalog/${result.name}`}>{result.name}</Link> : null}
        </>
      );
    default:
      return (
        <>
          <Badge tone="danger">{result.status}</Badge> {result.message}
        </>
      );
  }
}

export function ImportStep({
  repositories,
  running,
  answer,
  error,
  onRetry,
  onRestart,
}: {
  repositories: string[];
  running: boolean;
  answer: ImportAnswer | undefined;
  error: unknown;
  onRetry: () => void;
  onRestart: () => void;
}) {
  const byRepo = new Map((answer?.results ?? []).map((r) => [r.repository, r]));
  return (
    <Card title="Import">
      <div className="stack">
        {error ? (
          <Alert tone="error" data-testid="import-error">
            Nothing was imported: {describeApiError(error)}{" "}
            <Button size="small" onClick={onRetry}>
              Try again
            </Button>
          </Alert>
        ) : null}
        {answer ? (
          <Alert tone={answer.results.some((r) => r.status === "failed") ? "warning" : "success"} data-testid="import-summary">
            {answer.commit ? (
              <>
                Committed <code>{answer.commit.slice(0, 8)}</code> to the config repository.
              </>
            ) : answer.mergeRequest ? (
              <>
                Merge request <strong>!{answer.mergeRequest.iid}</strong> opened in the config repository (branch <code>{answer.mergeRequest.sourceBranch}</code>).
              </>
            ) : (
              <>Nothing was written.</>
            )}
          </Alert>
        ) : null}
        <Table label="Import results" data-testid="import-results">
          <TableHeader>
            <TableRow>
              <TableHead>Repository</TableHead>
              <TableHead>Result</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {repositories.map((path) => {
              const r = byRepo.get(path);
              return (
                <TableRow key={path} data-testid={`result-${path}`}>
                  <TableCell>
                    <code>{path}</code>
                  </TableCell>
                  <TableCell>{r && answer ? <ResultCell result={r} answer={answer} /> : running ? <Working text="importing…" /> : <span className="muted">—</span>}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
        <div className="row">
          <Button onClick={onRestart} disabled={running}>
            Import more
          </Button>
          <Link href="/catalog">Go to the catalog</Link>
        </div>
      </div>
    </Card>
  );
}
