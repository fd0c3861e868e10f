"use client";
// The Reviews page: requests the user may decide, and those the user opened (any state, so a close reason is seen).
import { Link } from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import { Alert, Badge, Card } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { when } from "@/components/gitops/relative-time";
import { fetchReviews, reviewKeys, type Review } from "./api";
import { ReviewStateBadge, scopeLabel } from "./review-state";
import styles from "./reviews.module.css";

/** What a decider can expect on the request's page, from what the server would accept (can.merge is false while it conflicts). */
function MergeabilityBadge({ review }: { review: Review }) {
  if (review.state !== "opened") return null;
  if (review.hasConflicts) {
    return (
      <Badge tone="danger" data-testid="review-row-conflicts" title="It cannot be merged: close it and propose the change again">
        conflicts with {review.targetBranch}
      </Badge>
    );
  }
  return review.can.merge ? <Badge tone="success">ready to merge</Badge> : null;
}

function ReviewRows({ reviews, empty, testId }: { reviews: Review[]; empty: string; testId: string }) {
  if (reviews.length === 0) return <p className="muted" data-testid={`${testId}-empty`}>{empty}</p>;
  return (
    <ul className={styles.list} data-testid={testId}>
      {reviews.map((r) => (
        <li key={r.iid} className={styles.item} data-testid={`review-${r.iid}`}>
          <div className={styles.itemTitle}>
            <Link href={`/reviews/${r.iid}`}>
              !{r.iid} {r.title}
            </Link>{" "}
            <ReviewStateBadge review={r} /> <MergeabilityBadge review={r} />
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

/** One card of the page: its requests once loaded, or why they are not shown. */
function ReviewSection({ title, query, empty, testId, failure }: { title: string; query: string; empty: string; testId: string; failure: string }) {
  const reviews = useQuery({ queryKey: reviewKeys.list(query), queryFn: ({ signal }) => fetchReviews(query, signal) });
  return (
    <Card title={title}>
      {reviews.isPending ? (
        <p className="muted">Loading…</p>
      ) : reviews.isError ? (
        <Alert tone="error">
          {failure}: {describeApiError(reviews.error)}
        </Alert>
      ) : (
        <ReviewRows reviews={reviews.data.mergeRequests} empty={empty} testId={testId} />
      )}
    </Card>
  );
}

export function ReviewList({ userId }: { userId: string }) {
  return (
    <div className="stack">
      <ReviewSection
        title="Waiting for your decision"
        query="mine-to-review=true"
        empty="Nothing waits for you: no open merge request of a component you own (or, as an operator, of any component)."
        testId="reviews-to-decide"
        failure="The merge requests cannot be read"
      />
      <ReviewSection
        title="Opened by you"
        query={`author=${encodeURIComponent(userId)}&state=all`}
        empty="You have not proposed a change yet. Changes you propose on a component's page show here."
        testId="reviews-mine"
        failure="Your merge requests cannot be read"
      />
    </div>
  );
}
