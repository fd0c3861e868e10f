"use client";
// The Reviews page: requests the user may decide, and those the user opened (any state, so a close reason is seen).
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { Alert, Card } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { when } from "@/components/gitops/relative-time";
import { fetchReviews, reviewKeys, type Review } from "./api";
import { ReviewStateBadge, scopeLabel } from "./review-state";
import styles from "./reviews.module.css";

function ReviewRows({ reviews, empty, testId }: { reviews: Review[]; empty: string; testId: string }) {
  if (reviews.length === 0) return <p className="muted" data-testid={`${testId}-empty`}>{empty}</p>;
  return (
    <ul className={styles.list} data-testid={testId}>
      {reviews.map((r) => (
        <li key={r.id} className={styles.item} data-testid={`review-${r.id}`}>
          <div className={styles.itemTitle}>
            <Link href={`/reviews/${r.id}`}>
              !{r.id} {r.title}
            </Link>{" "}
            <ReviewStateBadge review={r} />
          </div>
          <div className={`muted ${styles.meta}`}>
            {scopeLabel(r)} · by {r.author} · <span title={r.createdAt}>{when(r.createdAt)}</span>
            {r.approvals.length > 0 ? ` · approved by ${r.approvals.map((a) => a.by).join(", ")}` : ""}
            {r.state === "closed" && r.closeReason ? (
              <>
                {" "}
                · closed by {r.closedBy}: <q>{r.closeReason}</q>
              </>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

export function ReviewList({ userId }: { userId: string }) {
  const toDecide = useQuery({ queryKey: reviewKeys.list("mine-to-review=true"), queryFn: ({ signal }) => fetchReviews("mine-to-review=true", signal) });
  const mineQuery = `author=${encodeURIComponent(userId)}&state=all`;
  const mine = useQuery({ queryKey: reviewKeys.list(mineQuery), queryFn: ({ signal }) => fetchReviews(mineQuery, signal) });
  return (
    <div className="stack">
      <Card title="Waiting for your decision">
        {toDecide.isPending ? (
          <p className="muted">Loading…</p>
        ) : toDecide.isError ? (
          <Alert tone="error">The merge requests cannot be read: {describeApiError(toDecide.error)}</Alert>
        ) : (
          <ReviewRows reviews={toDecide.data.mergeRequests} empty="Nothing waits for you: no open merge request of a component you own (or, as an operator, of any component)." testId="reviews-to-decide" />
        )}
      </Card>
      <Card title="Opened by you">
        {mine.isPending ? (
          <p className="muted">Loading…</p>
        ) : mine.isError ? (
          <Alert tone="error">Your merge requests cannot be read: {describeApiError(mine.error)}</Alert>
        ) : (
          <ReviewRows reviews={mine.data.mergeRequests} empty="You have not proposed a change yet. Changes you propose on a component's page show here." testId="reviews-mine" />
        )}
      </Card>
    </div>
  );
}
