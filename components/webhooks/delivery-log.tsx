"use client";
// The delivery log: each event sent to each endpoint, its attempts (status codes, latency), the next
// retry, and a replay of one delivery. Newest first, filtered by status, older pages on demand.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSingleFlightMutation } from "@/components/forms/use-single-flight-mutation";
import { useState } from "react";
import { Alert, Badge, Button, Card, Field, Select, type BadgeTone, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { describeWebhookError, useWebhooksApi, type Delivery, type Status } from "./api";
import { formatTime } from "./format";
import styles from "./webhooks.module.css";

const TONE: Record<Status, BadgeTone> = { pending: "accent", delivered: "success", failed: "danger" };
const LABEL: Record<Status, string> = { pending: "Pending", delivered: "Delivered", failed: "Failed" };

/** A pending delivery the worker is sending now (due within a second, and not due for long: a stalled worker is not polled for). */
const SETTLING_POLL_MS = 1_000;
const SETTLING_FOR_MS = 30_000;
function settling(d: Delivery, now: number): boolean {
  if (d.status !== "pending" || d.nextAttemptAt === null) return false;
  const due = Date.parse(d.nextAttemptAt);
  return due <= now + SETTLING_POLL_MS && now - due < SETTLING_FOR_MS;
}

function lastAnswer(d: Delivery, now: number): string {
  const sending = settling(d, now) && Date.parse(d.nextAttemptAt!) <= now;
  if (d.attempts === 0) return sending ? "sending…" : "not tried yet";
  const answer = d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? "no answer");
  const timed = d.lastLatencyMs !== null ? `${answer} in ${d.lastLatencyMs} ms` : answer;
  // After a replay the last answer is the earlier round's: said as such until the new attempt lands.
  return sending ? `${timed} before; sending again…` : timed;
}

function what(d: Delivery): string {
  if (!d.playerId) return d.eventType;
  const rewards = (d.rewards ?? []).map((r) => `${r.amount} ${r.name}`).join(", ");
  return `${d.eventType}: ${rewards || "no rewards"} to ${d.playerId}`;
}

export function DeliveryLog({ gameId, refreshMs }: { gameId: string; refreshMs: number | false }) {
  const queryClient = useQueryClient();
  const { api, keys } = useWebhooksApi();
  const [status, setStatus] = useState<Status | "">("");
  const [older, setOlder] = useState<Delivery[]>([]);
  const log = useQuery({
    queryKey: keys.deliveries(gameId, status),
    queryFn: ({ signal }) => api.deliveries(gameId, { status: status || undefined }, signal),
    // While a delivery is being sent, the log follows it each second until it settles; otherwise refreshMs.
    refetchInterval: (query) => ((query.state.data?.deliveries ?? []).some((d) => settling(d, Date.now())) ? SETTLING_POLL_MS : refreshMs),
    placeholderData: keepPreviousData,
    ...retryWhileUnavailable,
  });
  const more = useMutation({
    mutationFn: (before: number) => api.deliveries(gameId, { status: status || undefined, before }),
    onSuccess: (page) => setOlder((rows) => [...rows, ...page.deliveries]),
  });
  // One replay at a time: a double-click on Replay sends it once.
  const replay = useSingleFlightMutation({
    mutationFn: (deliveryId: number) => api.replay(gameId, deliveryId),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.all(gameId) }),
  });
  const rows = [...(log.data?.deliveries ?? []), ...older];
  // The rows are as the service had them when fetched: "sending" is judged at that time.
  const now = log.dataUpdatedAt;
  const nextBefore = more.data ? more.data.nextBefore : (log.data?.nextBefore ?? null);

  return (
    <Card title="Delivery log">
      <div className="stack">
        <div className={styles.statusFilter}>
          <Field label="Status">
            {(id) => (
              <Select
                id={id}
                value={status}
                onChange={(event) => {
                  setOlder([]);
                  more.reset();
                  setStatus(event.target.value as Status | "");
                }}
              >
                <option value="">All</option>
                <option value="pending">Pending</option>
                <option value="delivered">Delivered</option>
                <option value="failed">Failed</option>
              </Select>
            )}
          </Field>
        </div>
        {log.isError ? <Alert tone="error">{describeWebhookError(log.error)}</Alert> : null}
        {replay.isError ? <Alert tone="error">{describeWebhookError(replay.error)}</Alert> : null}
        {replay.isSuccess ? <Alert tone="success">Delivery {replay.variables} queued again with the same webhook-id.</Alert> : null}
        {log.data && rows.length === 0 ? <p className="muted">No deliveries{status ? ` with status ${LABEL[status].toLowerCase()}` : ""} yet.</p> : null}
        {rows.length > 0 ? (
          <Table label="Deliveries" data-testid="delivery-log" stackOnNarrow>
            <TableHeader>
              <TableRow>
                <TableHead>Event</TableHead>
                <TableHead>Endpoint</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Attempts</TableHead>
                <TableHead>Last answer</TableHead>
                <TableHead>Next retry</TableHead>
                <TableHead>
                  <span className="visually-hidden">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((d) => (
                <TableRow key={d.deliveryId} data-testid="delivery" data-status={d.status} data-message-id={d.messageId}>
                  <TableCell label="Event">
                    <div>{what(d)}</div>
                    <div className={styles.messageId}>
                      {d.messageId} · {formatTime(d.eventAt)}
                    </div>
                  </TableCell>
                  <TableCell label="Endpoint" className={styles.url}>
                    {d.url}
                  </TableCell>
                  <TableCell label="Status">
                    <Badge tone={TONE[d.status]} data-testid="delivery-status">
                      {LABEL[d.status]}
                    </Badge>
                  </TableCell>
                  <TableCell label="Attempts">
                    {d.attemptLog.length > 0 ? (
                      <details>
                        <summary data-testid="delivery-attempts">{d.attempts}</summary>
                        <ol className={styles.attempts}>
                          {/* Newest first, as the service lists them: the latest attempt on top. */}
                          {d.attemptLog.map((a, i) => (
                            <li key={i}>
                              {formatTime(a.at)}: {a.statusCode !== null ? `HTTP ${a.statusCode}` : a.error} · {a.latencyMs} ms
                            </li>
                          ))}
                        </ol>
                      </details>
                    ) : (
                      <span data-testid="delivery-attempts">{d.attempts}</span>
                    )}
                  </TableCell>
                  <TableCell label="Last answer" data-testid="delivery-answer">{lastAnswer(d, now)}</TableCell>
                  <TableCell label="Next retry">{d.status === "pending" ? formatTime(d.nextAttemptAt) : "—"}</TableCell>
                  <TableCell>
                    <Button size="small" disabled={replay.isPending} onClick={() => replay.mutate(d.deliveryId)}>
                      Replay
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
        {nextBefore !== null && rows.length > 0 ? (
          <div>
            <Button size="small" disabled={more.isPending} onClick={() => more.mutate(nextBefore)}>
              {more.isPending ? "Loading…" : "Older deliveries"}
            </Button>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
