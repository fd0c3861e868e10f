// Browser-side calls of the review API, on the portal's one fetch client, and their query keys (types: lib/portal/contracts/reviews.ts).
import type { Review, ReviewDetail, ReviewList } from "@/lib/portal/contracts/reviews";
import { apiFetch } from "@/components/http/api-client";

export type { Review, ReviewDetail };

export const reviewKeys = {
  all: ["reviews"] as const,
  list: (query: string) => ["reviews", "list", query] as const,
  count: ["reviews", "count"] as const,
  one: (iid: number) => ["reviews", "one", iid] as const,
};

export function fetchReviews(query: string, signal?: AbortSignal): Promise<ReviewList> {
  return apiFetch(`/api/merge-requests${query ? `?${query}` : ""}`, { signal });
}

export function fetchReview(id: number, signal?: AbortSignal): Promise<ReviewDetail> {
  return apiFetch(`/api/merge-requests/${id}`, { signal });
}

export function decideReview(id: number, action: "approve" | "merge"): Promise<Review> {
  return apiFetch(`/api/merge-requests/${id}/${action}`, { method: "POST" });
}

export function closeReview(id: number, reason: string): Promise<Review> {
  return apiFetch(`/api/merge-requests/${id}/close`, { method: "POST", json: { reason } });
}
