"use client";
// The number of orders waiting for a lead, in the navigation.
import { Badge } from "@/components/ui";
import { usePolledCount } from "@/components/hooks/use-polled-count";
import { fetchPendingCount, orderKeys } from "./api";
import styles from "./app-orders.module.css";

export const PENDING_POLL_MS = 10_000;

export function PendingOrdersBadge() {
  const n = usePolledCount(orderKeys.pendingCount, () => fetchPendingCount().then((a) => a.count), PENDING_POLL_MS);
  if (n <= 0) return null;
  return (
    <Badge tone="warning" data-testid="pending-orders-badge" aria-label={`${n} order${n === 1 ? "" : "s"} waiting for a lead`} className={styles.badge}>
      {n}
    </Badge>
  );
}
