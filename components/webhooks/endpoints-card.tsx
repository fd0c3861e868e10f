"use client";
// A game's endpoints: status, and per endpoint disable/enable, rotate the secret, send a test event,
// delete (after a confirmation that says what goes with it).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert, Badge, Button, Card, FormDialog, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import { describeWebhookError, useWebhooksApi, type Endpoint, type RotatedSecret } from "./api";
import { formatTime, urlInMessage } from "./format";
import styles from "./webhooks.module.css";

type Action = { kind: "enable" | "disable" | "rotate" | "test" | "delete"; endpoint: Endpoint };

export function EndpointsCard({ gameId, endpoints, onRotated, children }: { gameId: string; endpoints: Endpoint[]; onRotated: (endpoint: Endpoint, rotated: RotatedSecret) => void; children?: React.ReactNode }) {
  const queryClient = useQueryClient();
  const { api, keys } = useWebhooksApi();
  const [notice, setNotice] = useState<string | null>(null);
  // When the page opened is recent enough to tell whether a rotation's previous secret still signs.
  const [now] = useState(() => Date.now());
  const act = useMutation({
    mutationFn: async ({ kind, endpoint }: Action) => {
      switch (kind) {
        case "enable":
        case "disable":
          await api.setEnabled(gameId, endpoint, kind === "enable");
          return `${urlInMessage(endpoint.url)} is ${kind}d.`;
        case "rotate":
          onRotated(endpoint, await api.rotate(gameId, endpoint));
          return `The signing secret of ${urlInMessage(endpoint.url)} was rotated.`;
        case "test": {
          const sent = await api.test(gameId, endpoint.endpointId);
          return `Test event ${sent.messageId} queued for ${urlInMessage(endpoint.url)}: it appears in the delivery log.`;
        }
        case "delete":
          await api.remove(gameId, endpoint);
          return `${urlInMessage(endpoint.url)} was deleted.`;
      }
    },
    onMutate: () => setNotice(null),
    onSuccess: (message, { kind }) => {
      setNotice(message);
      if (kind === "delete") setDeleting(null);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.all(gameId) }),
  });
  const busy = (endpoint: Endpoint) => act.isPending && act.variables?.endpoint.endpointId === endpoint.endpointId;
  // The endpoint whose deletion waits for a confirmation.
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  // As the list shows it now: after someone else's change (a 412) the list is read again, and a retry goes with its new etag.
  const toDelete = deleting ? (endpoints.find((e) => e.endpointId === deleting.endpointId) ?? deleting) : null;
  const deletePending = act.isPending && act.variables?.kind === "delete";
  const closeDelete = () => {
    if (!deletePending) setDeleting(null);
  };

  return (
    <Card title="Endpoints">
      <div className="stack">
        {endpoints.length === 0 ? <p className="muted">No endpoints yet: add your game server&apos;s webhook URL below.</p> : null}
        {endpoints.length > 0 ? (
          <Table label="Endpoints" data-testid="webhook-endpoints" stackOnNarrow>
            <TableHeader>
              <TableRow>
                <TableHead>URL</TableHead>
                <TableHead>Events</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Added</TableHead>
                <TableHead>
                  <span className="visually-hidden">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {endpoints.map((endpoint) => (
                <TableRow key={endpoint.endpointId} data-testid="webhook-endpoint" data-endpoint-id={endpoint.endpointId}>
                  <TableCell label="URL">
                    <span className={styles.url}>{endpoint.url}</span>
                    {endpoint.description ? <div className="muted">{endpoint.description}</div> : null}
                    {endpoint.previousSecretExpiresAt && Date.parse(endpoint.previousSecretExpiresAt) > now ? (
                      <div className="muted">previous secret signs too until {formatTime(endpoint.previousSecretExpiresAt)}</div>
                    ) : null}
                  </TableCell>
                  <TableCell label="Events">{endpoint.eventTypes.join(", ")}</TableCell>
                  <TableCell label="Status">
                    <Badge tone={endpoint.enabled ? "success" : "warning"} data-testid="endpoint-status">
                      {endpoint.enabled ? "Enabled" : "Disabled"}
                    </Badge>
                  </TableCell>
                  <TableCell label="Added">{formatTime(endpoint.createdAt)}</TableCell>
                  <TableCell>
                    <div className={styles.actions}>
                      <Button size="small" disabled={busy(endpoint)} onClick={() => act.mutate({ kind: endpoint.enabled ? "disable" : "enable", endpoint })}>
                        {endpoint.enabled ? "Disable" : "Enable"}
                      </Button>
                      <Button size="small" disabled={busy(endpoint)} onClick={() => act.mutate({ kind: "rotate", endpoint })}>
                        Rotate secret
                      </Button>
                      <Button size="small" disabled={busy(endpoint) || !endpoint.enabled} onClick={() => act.mutate({ kind: "test", endpoint })}>
                        Send test event
                      </Button>
                      <Button
                        size="small"
                        variant="danger"
                        disabled={busy(endpoint)}
                        onClick={() => {
                          act.reset();
                          setDeleting(endpoint);
                        }}
                      >
                        Delete
                      </Button>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        {act.isError && !deleting ? <Alert tone="error">{describeWebhookError(act.error)}</Alert> : null}
        {children}
      </div>
      <FormDialog
        open={deleting !== null}
        onClose={closeDelete}
        title="Delete this endpoint?"
        submitLabel="Delete endpoint"
        pendingLabel="Deleting…"
        submitVariant="danger"
        submitTestId="confirm-delete-endpoint"
        focusSubmit
        pending={deletePending}
        error={deleting && act.isError ? describeWebhookError(act.error) : null}
        onSubmit={() => toDelete && act.mutateAsync({ kind: "delete", endpoint: toDelete })}
      >
        {toDelete ? (
          <p>
            <span className={styles.url}>{toDelete.url}</span> stops receiving events, and its delivery log goes with it: deliveries still pending are not sent.
          </p>
        ) : null}
      </FormDialog>
    </Card>
  );
}
