"use client";
// The Releases tab: history per environment (version, who, when, commit) and, for operators,
// "Release to staging" (minor or major, confirmed in a dialog) and "Promote to production" (a staging
// version, the latest by default). Progress shows while a release runs; errors say what went wrong.
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { sortVersionsDesc } from "@/lib/portal/gitops/semver";
import { createRelease, fetchReleases, gitopsKeys, type ReleaseEnvironment, type ReleaseRequest } from "../api";
import { useElapsed } from "./use-elapsed";
import { ReleaseHistory } from "./release-history";
import { ReleaseDialog } from "./release-dialog";
import { PromoteDialog } from "./promote-dialog";
import styles from "../gitops.module.css";

export interface ReleasesTabProps {
  name: string;
  repository: string;
  environments: string[];
  canOperate: boolean;
}

export function ReleasesTab({ name, repository, environments, canOperate }: ReleasesTabProps) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const releases = useQuery({ queryKey: gitopsKeys.releases(name), queryFn: ({ signal }) => fetchReleases(name, signal) });
  const [dialog, setDialog] = useState<ReleaseEnvironment | null>(null);
  const run = useMutation({
    mutationFn: (request: ReleaseRequest) => createRelease(name, request),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: gitopsKeys.all(name) });
      router.refresh();
    },
  });
  const elapsed = useElapsed(run.isPending, run.submittedAt);
  const confirm = (request: ReleaseRequest) => {
    setDialog(null);
    run.mutate(request);
  };

  const hasStaging = environments.includes("staging");
  const hasProduction = environments.includes("production");
  if (!hasStaging && !hasProduction) {
    return (
      <Card title="Releases">
        <p className="muted">{name} has neither a staging nor a production environment, so it is not released from the portal.</p>
      </Card>
    );
  }
  if (releases.isPending) return <p className="muted">Loading releases…</p>;
  if (releases.isError) return <Alert tone="error">The releases cannot be read: {describeApiError(releases.error)}</Alert>;

  const all = releases.data.releases;
  const staging = all.filter((r) => r.environment === "staging");
  const production = all.filter((r) => r.environment === "production");
  const stagingVersions = sortVersionsDesc([...new Set(staging.map((r) => r.version))]);
  const request = run.variables;

  return (
    <div className="stack" data-testid="releases-tab">
      {canOperate ? (
        <div className="row">
          {hasStaging ? (
            <Button variant="primary" onClick={() => setDialog("staging")} disabled={run.isPending} data-testid="release-staging">
              Release to staging
            </Button>
          ) : null}
          {hasProduction ? (
            <Button onClick={() => setDialog("production")} disabled={run.isPending || stagingVersions.length === 0} data-testid="promote-production" title={stagingVersions.length === 0 ? "Release to staging first" : undefined}>
              Promote to production
            </Button>
          ) : null}
        </div>
      ) : (
        <p className={`muted ${styles.flush}`}>
          Operators release and promote.
        </p>
      )}

      {run.isPending && request ? (
        <Alert tone="info" data-testid="release-progress">
          <span className={styles.progress}>
            <span className={styles.spinner} aria-hidden="true" />
            {request.environment === "staging"
              ? `Releasing to staging: tagging a new ${request.releaseType ?? "minor"} version of ${repository} at ${request.sourceRef ?? "the default branch"} and making the persistent config current…`
              : `Promoting ${request.sourceRef ?? "the latest staging version"} to production and making the persistent config current…`}{" "}
            <span className="muted">{elapsed} s</span>
          </span>
        </Alert>
      ) : null}
      {run.isSuccess ? (
        <Alert tone="success" data-testid="release-outcome">
          {run.data.environment === "staging" ? "Released" : "Promoted"} <strong>{run.data.version}</strong> to {run.data.environment} (tag <code>{run.data.tag}</code> at <code>{run.data.commitSha.slice(0, 8)}</code>).
        </Alert>
      ) : null}
      {run.isError ? (
        <Alert tone="error" data-testid="release-error">
          {request?.environment === "production" ? "Promotion" : "Release"} failed: {describeApiError(run.error)}
        </Alert>
      ) : null}

      <div className={styles.columns}>
        {hasStaging ? <ReleaseHistory environment="staging" releases={staging} /> : null}
        {hasProduction ? <ReleaseHistory environment="production" releases={production} /> : null}
      </div>

      {dialog === "staging" ? <ReleaseDialog name={name} known={staging.map((r) => r.version)} onClose={() => setDialog(null)} onConfirm={confirm} /> : null}
      {dialog === "production" ? <PromoteDialog name={name} versions={stagingVersions} inProduction={production[0]?.version ?? null} onClose={() => setDialog(null)} onConfirm={confirm} /> : null}
    </div>
  );
}
