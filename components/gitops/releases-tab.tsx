"use client";
// The Releases tab: history per environment (version, who, when, commit) and, for operators,
// "Release to staging" (minor or major, confirmed in a dialog) and "Promote to production" (a staging
// version, the latest by default). Progress shows while a release runs; errors say what went wrong.
import { useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/input";
import { nextVersion, sortVersionsDesc } from "@/lib/portal/gitops/semver";
import { createRelease, describeError, fetchReleases, gitopsKeys, when, type Release, type ReleaseEnvironment } from "./api";
import styles from "./gitops.module.css";

export interface ReleasesTabProps {
  name: string;
  repository: string;
  environments: string[];
  canOperate: boolean;
}

type Request = { environment: ReleaseEnvironment; sourceRef?: string; releaseType?: "major" | "minor" };

/** Seconds since `since` while running, ticking twice a second. */
function useElapsed(running: boolean, since: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const id = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(id);
  }, [running]);
  return running ? Math.max(0, Math.round((now - since) / 1000)) : 0;
}

export function ReleasesTab({ name, repository, environments, canOperate }: ReleasesTabProps) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const releases = useQuery({ queryKey: gitopsKeys.releases(name), queryFn: ({ signal }) => fetchReleases(name, signal) });
  const [dialog, setDialog] = useState<ReleaseEnvironment | null>(null);
  const run = useMutation({
    mutationFn: (request: Request) => createRelease(name, request),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: gitopsKeys.all(name) });
      router.refresh();
    },
  });
  const elapsed = useElapsed(run.isPending, run.submittedAt);

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
  if (releases.isError) return <Alert tone="error">The releases cannot be read: {describeError(releases.error)}</Alert>;

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
        <p className="muted" style={{ margin: 0 }}>
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
          {request?.environment === "production" ? "Promotion" : "Release"} failed: {describeError(run.error)}
        </Alert>
      ) : null}

      <div className={styles.columns}>
        {hasStaging ? <History environment="staging" releases={staging} /> : null}
        {hasProduction ? <History environment="production" releases={production} /> : null}
      </div>

      {dialog === "staging" ? (
        <ReleaseDialog
          name={name}
          known={all.filter((r) => r.environment === "staging").map((r) => r.version)}
          onClose={() => setDialog(null)}
          onConfirm={(r) => {
            setDialog(null);
            run.mutate(r);
          }}
        />
      ) : null}
      {dialog === "production" ? (
        <PromoteDialog
          name={name}
          versions={stagingVersions}
          inProduction={production[0]?.version ?? null}
          onClose={() => setDialog(null)}
          onConfirm={(r) => {
            setDialog(null);
            run.mutate(r);
          }}
        />
      ) : null}
    </div>
  );
}

function History({ environment, releases }: { environment: ReleaseEnvironment; releases: Release[] }) {
  const current = releases[0];
  return (
    <Card
      title={
        <>
          {environment}{" "}
          {current ? (
            <Badge tone="success" data-testid={`current-${environment}`}>
              {current.version}
            </Badge>
          ) : (
            <Badge data-testid={`current-${environment}`}>nothing released</Badge>
          )}
        </>
      }
    >
      {releases.length === 0 ? (
        <p className="muted">No releases to {environment} yet.</p>
      ) : (
        <table className="ui-table" data-testid={`history-${environment}`}>
          <thead>
            <tr>
              <th>Version</th>
              <th>By</th>
              <th>When</th>
              <th>Commit</th>
            </tr>
          </thead>
          <tbody>
            {releases.map((r) => (
              <tr key={r.id}>
                <td>
                  {r.version}{" "}
                  {r.releaseType !== "promote" ? (
                    <span className="muted" title={`from ${r.sourceRef}`}>
                      {r.releaseType}
                    </span>
                  ) : null}
                </td>
                <td>{r.releasedBy}</td>
                <td title={r.releasedAt}>{when(r.releasedAt)}</td>
                <td>
                  <code title={`${r.commitSha} (tag ${r.tag})`}>{r.commitSha.slice(0, 8)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

function ReleaseDialog({ name, known, onClose, onConfirm }: { name: string; known: string[]; onClose: () => void; onConfirm: (r: Request) => void }) {
  const [type, setType] = useState<"minor" | "major">("minor");
  const [ref, setRef] = useState("");
  const version = nextVersion(known, type);
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Release ${name} to staging`}
      actions={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" onClick={() => onConfirm({ environment: "staging", releaseType: type, ...(ref.trim() ? { sourceRef: ref.trim() } : {}) })} data-testid="confirm-release">
            Release {version}
          </Button>
        </>
      }
    >
      <div className="stack">
        <Field label="Release type">
          {(id) => (
            <Select id={id} value={type} onChange={(e) => setType(e.target.value as "minor" | "major")} data-testid="release-type">
              <option value="minor">minor (new features, compatible)</option>
              <option value="major">major (breaking changes)</option>
            </Select>
          )}
        </Field>
        <Field label="Source" hint="A branch, tag or commit; empty = the default branch.">
          {(id) => <Input id={id} value={ref} placeholder="default branch" onChange={(e) => setRef(e.target.value)} />}
        </Field>
        <p style={{ margin: 0 }}>
          This tags <strong data-testid="next-version">v{version}</strong> in the component&apos;s repository and makes the persistent staging config current. A newer tag already in the repository raises the version.
        </p>
      </div>
    </Dialog>
  );
}

function PromoteDialog({ name, versions, inProduction, onClose, onConfirm }: { name: string; versions: string[]; inProduction: string | null; onClose: () => void; onConfirm: (r: Request) => void }) {
  const [version, setVersion] = useState(versions[0] ?? "");
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Promote ${name} to production`}
      actions={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" disabled={!version || version === inProduction} onClick={() => onConfirm({ environment: "production", sourceRef: version })} data-testid="confirm-promote">
            Promote {version}
          </Button>
        </>
      }
    >
      <div className="stack">
        <Field label="Staging version" hint={inProduction ? `Production runs ${inProduction}.` : "Nothing is in production yet."}>
          {(id) => (
            <Select id={id} value={version} onChange={(e) => setVersion(e.target.value)} data-testid="promote-version">
              {versions.map((v) => (
                <option key={v} value={v}>
                  {v}
                  {v === inProduction ? " (in production)" : ""}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <p style={{ margin: 0 }}>This deploys the commit of that staging release to production and makes the persistent production config current.</p>
      </div>
    </Dialog>
  );
}
