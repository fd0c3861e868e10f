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
  // Before the answer, a row per repository; after it, a row per result (a Backstage repository may hold several components).
  const rows: Array<{ key: string; repository: string; result: ImportResult | null }> = answer
    ? answer.results.map((r, i) => ({ key: `${r.repository}|${r.entity ?? ""}|${i}`, repository: r.repository, result: r }))
    : repositories.map((path) => ({ key: path, repository: path, result: null }));
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
                {answer.unmapped?.length ? ` Its description lists what did not map from Backstage (${answer.unmapped.length} ${answer.unmapped.length === 1 ? "field" : "fields"}).` : null}{" "}
                <Link href={`/reviews/${answer.mergeRequest.iid}`} data-testid="open-merge-request">
                  Open merge request !{answer.mergeRequest.iid}
                </Link>
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
            {rows.map(({ key, repository, result: r }) => (
              <TableRow key={key} data-testid={r?.entity ? `result-${r.name ?? r.entity}` : `result-${repository}`}>
                <TableCell>
                  <code>{repository}</code>
                  {r?.entity ? <div className="muted">{r.entity}</div> : null}
                </TableCell>
                <TableCell>{r && answer ? <ResultCell result={r} answer={answer} /> : running ? <Working text="importing…" /> : <span className="muted">—</span>}</TableCell>
              </TableRow>
            ))}
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
