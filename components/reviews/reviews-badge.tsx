"use client";
// The number of merge requests the user may decide, in the navigation.
import { Badge } from "@/components/ui";
import { usePolledCount } from "@/components/hooks/use-polled-count";
import { fetchReviews, reviewKeys } from "./api";
import styles from "./reviews.module.css";

export const REVIEWS_POLL_MS = 15_000;

export function ReviewsBadge() {
  const n = usePolledCount(reviewKeys.count, (signal) => fetchReviews("mine-to-review=true", signal).then((a) => a.count), REVIEWS_POLL_MS);
  if (n <= 0) return null;
  return (
    <Badge tone="warning" data-testid="reviews-badge" aria-label={`${n} merge request${n === 1 ? "" : "s"} waiting for your review`} className={styles.badge}>
      {n}
    </Badge>
  );
}
