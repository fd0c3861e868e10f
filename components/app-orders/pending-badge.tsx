"use client";
// The number of orders waiting for a lead, in the navigation; polled so it changes without a reload.
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui";
import { fetchPendingCount, orderKeys } from "./api";

export const PENDING_POLL_MS = 10_000;

export function PendingOrdersBadge() {
  const count = useQuery({
    queryKey: orderKeys.pendingCount,
    queryFn: fetchPendingCount,
    refetchInterval: PENDING_POLL_MS,
    refetchOnWindowFocus: true,
    staleTime: 0,
    retry: false,
  });
  const n = count.data?.count ?? 0;
  if (n <= 0) return null;
  return (
    <Badge tone="warning" data-testid="pending-orders-badge" aria-label={`${n} order${n === 1 ? "" : "s"} waiting for a lead`} style={{ marginLeft: "0.35rem" }}>
      {n}
    </Badge>
  );
}
