"use client";
// The definition's latest surfacing job (activation, an edit of an active one, its window opening):
// players evaluated of total and activations, polled every second while it is queued or running.
import { useQuery } from "@tanstack/react-query";
import { Alert, Badge } from "@/components/ui";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { describeLiveOpsError, useLiveOpsApi, type SurfacingJob } from "./api";
import { formatCount, formatUtc } from "./format";
import styles from "./live-ops.module.css";

const REASONS: Record<SurfacingJob["reason"], string> = { activated: "Activation", updated: "Change while active", "window-opened": "Window opened" };
const STATES: Record<SurfacingJob["status"], { label: string; tone: "neutral" | "accent" | "success" | "warning" | "danger" }> = {
  queued: { label: "Queued", tone: "warning" },
  running: { label: "Running", tone: "accent" },
  done: { label: "Done", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  superseded: { label: "Superseded", tone: "neutral" },
};
const working = (job: SurfacingJob | undefined) => job?.status === "queued" || job?.status === "running";

export function JobProgress({ gameId, offerId, initial }: { gameId: string; offerId: string; initial: SurfacingJob[] }) {
  const { api, keys } = useLiveOpsApi();
  const jobs = useQuery({
    queryKey: keys.jobs(gameId, offerId),
    queryFn: ({ signal }) => api.jobs(gameId, offerId, signal),
    initialData: initial,
    refetchInterval: (query) => (working(query.state.data?.[0]) ? 1_000 : false),
    ...retryWhileUnavailable,
  });
  const job = jobs.data?.[0];
  if (!job) return <p className="muted">No surfacing job yet: one runs over the game&apos;s players when the offer is activated.</p>;
  const total = job.playersTotal;
  const percent = total ? Math.min(100, Math.round((job.playersEvaluated / total) * 100)) : job.status === "done" ? 100 : 0;
  const state = STATES[job.status];
  return (
    <div className="stack" data-testid="job-progress" data-status={job.status}>
      <div className="row">
        <strong>{REASONS[job.reason]}</strong>
        <Badge tone={state.tone}>{state.label}</Badge>
        <span className="muted">version {job.definitionVersion}</span>
      </div>
      <div
        className={styles.progress}
        role="progressbar"
        aria-label="Players evaluated"
        aria-valuemin={0}
        aria-valuemax={total ?? 0}
        aria-valuenow={job.playersEvaluated}
        aria-valuetext={total === null ? "counting players" : `${job.playersEvaluated} of ${total} players`}
      >
        <div className={styles.progressBar} style={{ width: `${percent}%` }} />
      </div>
      <p className={styles.flush} aria-live="polite" data-testid="job-figures">
        {total === null ? "Counting players…" : `${formatCount(job.playersEvaluated)} of ${formatCount(total)} players evaluated`} · {formatCount(job.activations)}{" "}
        {job.activations === 1 ? "activation" : "activations"}
      </p>
      <p className={`muted ${styles.flush}`}>
        Queued {formatUtc(job.createdAt)}
        {job.finishedAt ? ` · finished ${formatUtc(job.finishedAt)}` : ""}
        {job.attempts > 1 ? ` · attempt ${job.attempts}` : ""}
      </p>
      {job.error ? <Alert tone="error">The job failed: {job.error}</Alert> : null}
      {jobs.isError ? <Alert tone="warning">{describeLiveOpsError(jobs.error)}</Alert> : null}
    </div>
  );
}
