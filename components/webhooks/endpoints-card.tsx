"use client";
// A game's endpoints: status, and per endpoint disable/enable, rotate the secret, send a test event.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert, Badge, Button, Card } from "@/components/ui";
import { describeWebhookError, useWebhooksApi, type Endpoint, type RotatedSecret } from "./api";
import { formatTime } from "./format";
import styles from "./webhooks.module.css";

type Action = { kind: "enable" | "disable" | "rotate" | "test"; endpoint: Endpoint };

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
          await api.setEnabled(gameId, endpoint.endpointId, kind === "enable");
          return `${endpoint.url} is ${kind}d.`;
        case "rotate":
          onRotated(endpoint, await api.rotate(gameId, endpoint.endpointId));
          return `The signing secret of ${endpoint.url} was rotated.`;
        case "test": {
          const sent = await api.test(gameId, endpoint.endpointId);
          return `Test event ${sent.messageId} queued for ${endpoint.url}: it appears in the delivery log.`;
        }
      }
    },
    onMutate: () => setNotice(null),
    onSuccess: (message) => setNotice(message),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.all(gameId) }),
  });
  const busy = (endpoint: Endpoint) => act.isPending && act.variables?.endpoint.endpointId === endpoint.endpointId;

  return (
    <Card title="Endpoints">
      <div className="stack">
        {endpoints.length === 0 ? <p className="muted">No endpoints yet: add your game server&apos;s webhook URL below.</p> : null}
        {endpoints.length > 0 ? (
          <table className="ui-table" data-testid="webhook-endpoints">
            <thead>
              <tr>
                <th>URL</th>
                <th>Events</th>
                <th>Status</th>
                <th>Added</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {endpoints.map((endpoint) => (
                <tr key={endpoint.endpointId} data-testid="webhook-endpoint" data-endpoint-id={endpoint.endpointId}>
                  <td>
                    <span className={styles.url}>{endpoint.url}</span>
                    {endpoint.description ? <div className="muted">{endpoint.description}</div> : null}
                    {endpoint.previousSecretExpiresAt && Date.parse(endpoint.previousSecretExpiresAt) > now ? (
                      <div className="muted">previous secret signs too until {formatTime(endpoint.previousSecretExpiresAt)}</div>
                    ) : null}
                  </td>
                  <td>{endpoint.eventTypes.join(", ")}</td>
                  <td>
                    <Badge tone={endpoint.enabled ? "success" : "warning"} data-testid="endpoint-status">
                      {endpoint.enabled ? "Enabled" : "Disabled"}
                    </Badge>
                  </td>
                  <td>{formatTime(endpoint.createdAt)}</td>
                  <td>
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
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        {act.isError ? <Alert tone="error">{describeWebhookError(act.error)}</Alert> : null}
        {children}
      </div>
    </Card>
  );
}
