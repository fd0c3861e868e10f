"use client";
// One merge request: what it is, what it changes, whether it still merges, and the decisions the user may take.
import { useState } from "react";
import { Link } from "@/components/ui/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card } from "@/components/ui";
import { ApiError, describeApiError } from "@/components/http/api-client";
import { when } from "@/components/gitops/relative-time";
import { decideReview, fetchReview, reviewKeys, type Review, type ReviewDetail } from "./api";
import { CloseReviewDialog } from "./close-review-dialog";
import { DiffView } from "./diff-view";
import { ReviewStateBadge, scopeLabel } from "./review-state";
import styles from "./reviews.module.css";

function scopeLink(review: Review) {
  const s = review.scope;
  if (s.kind === "component") return <Link href={`/catalog/${encodeURIComponent(s.component)}`}>{s.component}</Link>;
  if (s.kind === "order") return <Link href="/app-orders/queue">app order {s.component}</Link>;
  return scopeLabel(review);
}

/** Refusals that mean the request changed since the page loaded (decided elsewhere, or its target moved). */
const CHANGED_ELSEWHERE = new Set(["merge-request-decided", "merge-conflict"]);
const changedElsewhere = (error: unknown): error is ApiError => error instanceof ApiError && CHANGED_ELSEWHERE.has(error.code);

export function ReviewView({ initial }: { initial: ReviewDetail }) {
  const queryClient = useQueryClient();
  const review = useQuery({ queryKey: reviewKeys.one(initial.iid), queryFn: ({ signal }) => fetchReview(initial.iid, signal), initialData: initial });
  const [closing, setClosing] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const settle = async (message: string) => {
    setDone(message);
    // The request, the lists, the badge and the component's config views all change with a decision.
    await Promise.all([queryClient.invalidateQueries({ queryKey: reviewKeys.all }), queryClient.invalidateQueries({ queryKey: ["gitops"] })]);
  };
  // A refusal because the request changed elsewhere: the page reloads it and says why its buttons changed.
  const [changed, setChanged] = useState<string | null>(null);
  const refreshAfterRefusal = (error: ApiError) => {
    setDone(null);
    setChanged(`${describeApiError(error)} It changed since you opened this page: it now shows the request as it is.`);
    void Promise.all([queryClient.invalidateQueries({ queryKey: reviewKeys.all }), queryClient.invalidateQueries({ queryKey: ["gitops"] })]);
  };
  const decide = useMutation({
    mutationFn: (action: "approve" | "merge") => decideReview(initial.iid, action),
    onMutate: () => setChanged(null),
    onSuccess: (r, action) => settle(action === "merge" ? `Merged !${r.iid}: the change is in ${r.targetBranch}.` : `You approved !${r.iid}.`),
    onError: (error) => {
      if (changedElsewhere(error)) refreshAfterRefusal(error);
    },
  });
  const r = review.data;
  return (
    <div className="stack">
      <div>
        <h1 className={`${styles.itemTitle} ${styles.pageTitle}`}>
          !{r.iid} {r.title} <ReviewStateBadge review={r} />
        </h1>
      </div>
      {changed ? (
        <Alert tone="warning" data-testid="review-changed">
          {changed}
        </Alert>
      ) : null}
      {done ? (
        <Alert tone="success" data-testid="review-outcome">
          {done}
        </Alert>
      ) : null}
      {r.state === "closed" ? (
        <Alert tone="warning" data-testid="review-closed">
          Closed by {r.closedBy ?? "someone outside the portal"}
          {r.closeReason ? (
            <>
              : <q data-testid="review-close-reason">{r.closeReason}</q>
            </>
          ) : (
            "."
          )}
        </Alert>
      ) : null}
      {r.state === "opened" && r.hasConflicts ? (
        <Alert tone="error" data-testid="review-conflicts">
          This request conflicts with {r.targetBranch}: the file changed there since it was proposed. It cannot be merged; close it and propose the change again.
        </Alert>
      ) : null}
      {r.state === "opened" && r.scope.kind === "order" ? <Alert tone="info">This request belongs to an app order: a lead approves or rejects it in the leads&apos; queue.</Alert> : null}
      <Card title="Merge request">
        <dl className={styles.facts}>
          <dt>About</dt>
          <dd>{scopeLink(r)}</dd>
          <dt>Author</dt>
          <dd data-testid="review-author">{r.author}</dd>
          <dt>Branch</dt>
          <dd>
            <code>{r.sourceBranch}</code> → <code>{r.targetBranch}</code>
          </dd>
          <dt>Opened</dt>
          <dd title={r.createdAt}>{when(r.createdAt)}</dd>
          <dt>Status</dt>
          <dd data-testid="review-status">
            {r.state === "merged" ? `merged${r.mergedBy ? ` by ${r.mergedBy}` : ""}` : r.state === "closed" ? "closed" : r.hasConflicts ? "open, conflicts with the target" : "open, merges cleanly"}
          </dd>
          <dt>Approvals</dt>
          <dd data-testid="review-approvals">{r.approvals.length ? r.approvals.map((a) => a.name || a.by).join(", ") : "none yet"}</dd>
          {r.webUrl ? (
            <>
              <dt>In source control</dt>
              <dd>
                <a href={r.webUrl} target="_blank" rel="noopener noreferrer">
                  {r.webUrl}
                </a>
              </dd>
            </>
          ) : null}
        </dl>
        {r.description ? <pre className={styles.description}>{r.description}</pre> : null}
      </Card>
      {r.can.approve || r.can.merge || r.can.close ? (
        <div className={styles.actions} data-testid="review-actions">
          {r.can.approve ? (
            <Button disabled={decide.isPending} onClick={() => decide.mutate("approve")}>
              Approve
            </Button>
          ) : null}
          {/* A conflicting request shows Merge disabled (the server would refuse it: can.merge is false), beside the alert saying why. */}
          {r.can.merge || r.hasConflicts ? (
            <Button variant="primary" disabled={decide.isPending || !r.can.merge} onClick={() => decide.mutate("merge")}>
              {decide.isPending && decide.variables === "merge" ? "Merging…" : "Merge"}
            </Button>
          ) : null}
          {r.can.close ? (
            <Button variant="danger" disabled={decide.isPending} onClick={() => setClosing(true)}>
              Close…
            </Button>
          ) : null}
        </div>
      ) : null}
      {decide.isError && !changedElsewhere(decide.error) ? <Alert tone="error">{describeApiError(decide.error)}</Alert> : null}
      <Card title="Changes">
        <DiffView files={r.files} />
      </Card>
      <CloseReviewDialog
        review={r}
        open={closing}
        onClose={() => setClosing(false)}
        onClosed={(c) => {
          setClosing(false);
          void settle(`Closed !${c.iid}.`);
        }}
        onChangedElsewhere={(error) => {
          setClosing(false);
          refreshAfterRefusal(error);
        }}
      />
    </div>
  );
}
