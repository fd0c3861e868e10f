"use client";
// The number of merge requests the user may decide, in the navigation; polled so it changes without a reload.
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui";
import { fetchReviews, reviewKeys } from "./api";

export const REVIEWS_POLL_MS = 15_000;

export function ReviewsBadge() {
  const count = useQuery({
    queryKey: reviewKeys.count,
    queryFn: ({ signal }) => fetchReviews("mine-to-review=true", signal),
    refetchInterval: REVIEWS_POLL_MS,
    refetchOnWindowFocus: true,
    staleTime: 0,
    retry: false,
  });
  const n = count.data?.count ?? 0;
  if (n <= 0) return null;
  return (
    <Badge tone="warning" data-testid="reviews-badge" aria-label={`${n} merge request${n === 1 ? "" : "s"} waiting for your review`} style={{ marginLeft: "0.35rem" }}>
      {n}
    </Badge>
  );
}
