"use client";
// The Merge requests tab: the open merge requests of the component's repository and those of the
// config repository that touch this component (branches portal/<name>/…), newest first. Config requests
// open their review page; the repository's own open in source control when it has a web page.
import { Link } from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import { Alert, Card, Badge, Button, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { fetchMergeRequests, gitopsKeys } from "./api";
import { when } from "./relative-time";

export function MergeRequestsTab({ name, repository }: { name: string; repository: string }) {
  const mrs = useQuery({ queryKey: gitopsKeys.mergeRequests(name), queryFn: ({ signal }) => fetchMergeRequests(name, signal) });
  if (mrs.isPending) return <p className="muted">Loading merge requests…</p>;
  if (mrs.isError) return <Alert tone="error">The merge requests cannot be read: {describeApiError(mrs.error)}</Alert>;
  const list = mrs.data.mergeRequests;
  return (
    <Card title="Open merge requests">
      <div className="stack">
        {mrs.data.errors.length > 0 ? (
          <Alert tone="warning" data-testid="merge-request-errors">
            Some merge requests could not be read: {mrs.data.errors.join("; ")}
          </Alert>
        ) : null}
        {list.length === 0 ? (
          <p className="muted" data-testid="no-merge-requests">
            No open merge requests in <code>{repository}</code> or for {name} in the config repository.
          </p>
        ) : (
          <Table label="Open merge requests" data-testid="merge-requests">
            <TableHeader>
              <TableRow>
                <TableHead>Merge request</TableHead>
                <TableHead>Repository</TableHead>
                <TableHead>Branch</TableHead>
                <TableHead>Author</TableHead>
                <TableHead>Opened</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.map((m) => (
                <TableRow key={`${m.repository}!${m.iid}`} data-testid={`merge-request-${m.source}-${m.iid}`}>
                  <TableCell>
                    {m.source === "config" ? (
                      <Link href={`/reviews/${m.iid}`}>
                        !{m.iid} {m.title}
                      </Link>
                    ) : m.webUrl ? (
                      <a href={m.webUrl} target="_blank" rel="noopener noreferrer">
                        !{m.iid} {m.title}
                      </a>
                    ) : (
                      <>
                        <strong>!{m.iid}</strong> {m.title}
                      </>
                    )}
                  </TableCell>
                  <TableCell>
                    <Badge tone={m.source === "config" ? "accent" : "neutral"}>{m.source === "config" ? "config" : "component"}</Badge> <code>{m.repository}</code>
                  </TableCell>
                  <TableCell>
                    <code>{m.sourceBranch}</code> → <code>{m.targetBranch}</code>
                  </TableCell>
                  <TableCell>{m.author}</TableCell>
                  <TableCell title={m.createdAt}>{when(m.createdAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <div>
          <Button size="small" variant="ghost" onClick={() => void mrs.refetch()} disabled={mrs.isFetching}>
            {mrs.isFetching ? "Refreshing…" : "Refresh"}
          </Button>
        </div>
      </div>
    </Card>
  );
}
