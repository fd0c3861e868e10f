"use client";
// A game's incident compensations as cards: what each grants, its status and progress (polled while one
// waits or runs), approve or reject (anyone but the requester), cancel, and the result's download.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Badge, Button, Card, Field, Input, type BadgeTone } from "@/components/ui";
import { buttonClasses } from "@/components/ui/button-classes";
import { SUPPORT_REASON_MAX } from "@/lib/offers-client/schemas";
import { describeOffersError, useOffersApi, type BulkCompensation } from "./api";
import { formatTime } from "./format";

/** How often the list is read again while a job waits or runs (every instance answers from the offers service). */
export const BULK_POLL_MS = 2_000;

const TONES: Record<BulkCompensation["status"], BadgeTone> = { pending: "warning", running: "warning", done: "success", rejected: "danger", expired: "neutral", cancelled: "neutral" };
const LABELS: Record<BulkCompensation["status"], string> = {
  pending: "Waits for approval",
  running: "Granting",
  done: "Done",
  rejected: "Rejected",
  expired: "Expired",
  cancelled: "Cancelled",
};

export function BulkJobs({ gameId, me, status, title }: { gameId: string; me: string | null; status?: "pending"; title: string }) {
  const { api, keys } = useOffersApi();
  const jobs = useQuery({
    queryKey: keys.bulkJobs(gameId, status ?? "all"),
    queryFn: ({ signal }) => api.bulkJobs(gameId, { status }, signal),
    refetchInterval: (query) => (query.state.data?.jobs.some((j) => j.status === "pending" || j.status === "running") ? BULK_POLL_MS : BULK_POLL_MS * 5),
    retry: false,
  });
  const count = jobs.data?.pending ?? 0;
  return (
    <Card
      title={
        <>
          {title}{" "}
          {status === "pending" && count > 0 ? (
            <Badge tone="warning" data-testid="pending-bulk-badge" aria-label={`${count} compensation${count === 1 ? "" : "s"} waiting for approval`}>
              {count}
            </Badge>
          ) : null}
        </>
      }
      data-testid={status === "pending" ? "pending-bulk-compensations" : "bulk-compensations"}
    >
      {jobs.isError ? <Alert tone="error">{describeOffersError(jobs.error)}</Alert> : null}
      {jobs.data && jobs.data.jobs.length === 0 ? <p className="muted">{status === "pending" ? "No compensation waits for approval." : "No compensation yet."}</p> : null}
      <div className="stack">
        {jobs.data?.jobs.map((job) => (
          <BulkJobCard key={job.jobId} gameId={gameId} job={job} me={me} />
        ))}
      </div>
    </Card>
  );
}

function BulkJobCard({ gameId, job, me }: { gameId: string; job: BulkCompensation; me: string | null }) {
  const { api } = useOffersApi();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const act = useMutation({
    mutationFn: (action: "approve" | "reject" | "cancel") => api.actOnBulk(gameId, job.jobId, action, reason.trim()),
    onSuccess: () => {
      setReason("");
      void queryClient.invalidateQueries({ queryKey: ["offers"] });
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: ["offers"] }),
  });
  const own = me !== null && job.requestedBy.toLowerCase() === me.toLowerCase();
  const { preview, progress } = job;
  const open = job.status === "pending" || job.status === "running";
  const percent = progress.total ? Math.floor((progress.granted * 100) / progress.total) : 0;
  return (
    <section className="stack" data-testid={`bulk-job-${job.jobId}`} aria-label={`Compensation ${job.jobId}`} style={{ borderTop: "1px solid var(--border, #ddd)", paddingTop: "0.75rem", overflowWrap: "anywhere" }}>
      <div>
        <strong>
          {preview.amount.toLocaleString("en-US")} {preview.name}
        </strong>{" "}
        <code className="muted">{preview.rewardId}</code> to <strong data-testid="bulk-job-players">{preview.players.toLocaleString("en-US")}</strong> players (total{" "}
        {preview.totalAmount.toLocaleString("en-US")}) <Badge tone={TONES[job.status]}>{LABELS[job.status]}</Badge>
      </div>
      <div className="muted">
        Asked {formatTime(job.requestedAt)} by {job.requestedBy}: {job.reason}
        {job.decidedBy ? ` · ${job.status === "rejected" ? "rejected" : "approved"} by ${job.decidedBy}${job.decisionReason ? `: ${job.decisionReason}` : ""}` : ""}
        {job.cancelledBy ? ` · cancelled by ${job.cancelledBy}` : ""}
      </div>
      {job.status !== "pending" ? (
        <div>
          <progress max={progress.total} value={progress.granted} aria-label="Players granted" style={{ width: "100%", maxWidth: "24rem" }} />{" "}
          <span data-testid="bulk-job-progress">
            {progress.granted.toLocaleString("en-US")} of {progress.total.toLocaleString("en-US")} granted ({percent}%)
            {progress.cancelled ? `, ${progress.cancelled.toLocaleString("en-US")} not granted (cancelled)` : ""}
          </span>
        </div>
      ) : null}
      {preview.unknown || preview.duplicates || preview.invalid ? (
        <div className="muted">
          Not granted: {preview.unknown.toLocaleString("en-US")} unknown ids, {preview.invalid.toLocaleString("en-US")} invalid ids; {preview.duplicates.toLocaleString("en-US")} repeats counted once.
        </div>
      ) : null}
      {act.isError ? <Alert tone="error">{describeOffersError(act.error)}</Alert> : null}
      {open ? (
        <div className="row" style={{ flexWrap: "wrap", alignItems: "flex-end" }}>
          <Field label="Reason" hint={job.status === "pending" && !own ? "Required to reject or cancel; optional to approve." : "Required to cancel."}>
            {(id) => <Input id={id} value={reason} maxLength={SUPPORT_REASON_MAX} onChange={(e) => setReason(e.target.value)} data-testid="bulk-job-reason" />}
          </Field>
          {job.status === "pending" && !own ? (
            <>
              <Button size="small" disabled={act.isPending} onClick={() => act.mutate("approve")} data-testid="bulk-job-approve">
                Approve
              </Button>
              <Button size="small" variant="danger" disabled={act.isPending || !reason.trim()} onClick={() => act.mutate("reject")} data-testid="bulk-job-reject">
                Reject
              </Button>
            </>
          ) : null}
          {job.status === "pending" && own ? <span className="muted">Someone else approves</span> : null}
          <Button size="small" variant="danger" disabled={act.isPending || !reason.trim()} onClick={() => act.mutate("cancel")} data-testid="bulk-job-cancel">
            Cancel compensation
          </Button>
        </div>
      ) : null}
      {job.resultDeletedAt ? (
        <p className="muted" data-testid="bulk-job-result-deleted">
          The per-player result was deleted on {formatTime(job.resultDeletedAt)}, after the retention period; the counts above remain.
        </p>
      ) : job.status !== "pending" && job.status !== "expired" && job.status !== "rejected" ? (
        <div>
          {/* A plain link: a file download, not a page of the app. */}
          <a className={buttonClasses("default", "small")} href={api.bulkResultUrl(gameId, job.jobId)} download={`${job.jobId}.csv`} data-testid="bulk-job-result">
            Download result (CSV)
          </a>
        </div>
      ) : null}
    </section>
  );
}
