"use client";
// The game's support grants waiting for a second person, with their count: polled, so a new request
// shows without a reload. Anyone but the requester approves or rejects from here.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Badge, Card } from "@/components/ui";
import { describeOffersError, useOffersApi } from "./api";
import { SupportGrantsTable } from "./support-grants-table";

export const PENDING_GRANTS_POLL_MS = 10_000;

export function PendingApprovals({ gameId, me }: { gameId: string; me: string | null }) {
  const queryClient = useQueryClient();
  const { api, keys } = useOffersApi();
  const key = keys.pendingGrants(gameId);
  const pending = useQuery({ queryKey: key, queryFn: ({ signal }) => api.supportGrants(gameId, { status: "pending" }, signal), refetchInterval: PENDING_GRANTS_POLL_MS, retry: false });
  const count = pending.data?.pending ?? 0;
  const title = (
    <>
      Pending approvals{" "}
      {count > 0 ? (
        <Badge tone="warning" data-testid="pending-grants-badge" aria-label={`${count} grant${count === 1 ? "" : "s"} waiting for approval`}>
          {count}
        </Badge>
      ) : null}
    </>
  );
  return (
    <Card title={title} data-testid="pending-approvals">
      {pending.isError ? <Alert tone="error">{describeOffersError(pending.error)}</Alert> : null}
      {pending.data && pending.data.grants.length === 0 ? <p className="muted">No grant waits for approval.</p> : null}
      {pending.data && pending.data.grants.length > 0 ? (
        <SupportGrantsTable grants={pending.data.grants} me={me} showPlayer label="Support grants waiting for approval" onDecided={() => void queryClient.invalidateQueries({ queryKey: ["offers"] })} />
      ) : null}
    </Card>
  );
}
