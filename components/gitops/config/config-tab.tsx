"use client";
// The Config tab: an environment switcher; current (live) against persistent (config repository)
// values side by side with the differences (drift) highlighted; an editor with a preview of the change
// before saving (engineers: a merge request; operators: a commit, or a live change); for operators a
// bulk editor across environments (one commit for all of them).
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Badge, Button, Card } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import type { ConfigValues } from "@/lib/portal/gitops/config-values";
import { fetchConfig, gitopsKeys, type ConfigAnswer, type ConfigView, type ConfigWriteResult } from "../api";
import { when } from "../relative-time";
import { BulkEditor } from "./bulk-editor";
import { CompareTable } from "./compare-table";
import { EnvironmentEditor } from "./environment-editor";
import { OutcomeAlert } from "./outcome-alert";
import styles from "../gitops.module.css";

export interface ConfigTabProps {
  name: string;
  environments: string[];
  canOperate: boolean;
  canCommit: boolean;
  onShowMergeRequests: () => void;
}

type Mode = "view" | "edit" | "bulk";

function byEnvironment(answer: ConfigAnswer | undefined): Record<string, ConfigValues> {
  return Object.fromEntries((answer?.environments ?? []).map((e) => [e.environment, e.values]));
}

export function ConfigTab({ name, environments, canOperate, canCommit, onShowMergeRequests }: ConfigTabProps) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const persistent = useQuery({ queryKey: gitopsKeys.config(name, "persistent"), queryFn: ({ signal }) => fetchConfig(name, "persistent", signal) });
  const current = useQuery({ queryKey: gitopsKeys.config(name, "current"), queryFn: ({ signal }) => fetchConfig(name, "current", signal) });
  const [env, setEnv] = useState(environments[0] ?? "");
  const [mode, setMode] = useState<Mode>("view");
  // What the editor starts from: the persistent values, or the live ones (to persist a drift).
  const [seed, setSeed] = useState<ConfigView>("persistent");
  const [outcome, setOutcome] = useState<ConfigWriteResult | null>(null);

  if (environments.length === 0) {
    return (
      <Card title="Config">
        <p className="muted">{name} has no environments, so it has no config per environment. Add environments to the component first.</p>
      </Card>
    );
  }
  if (persistent.isPending || current.isPending) return <p className="muted">Loading config…</p>;
  if (persistent.isError || current.isError) {
    return <Alert tone="error">The config cannot be read: {describeApiError(persistent.error ?? current.error)}</Alert>;
  }

  const persistentValues = byEnvironment(persistent.data);
  const currentValues = byEnvironment(current.data);
  const info = current.data.environments.find((e) => e.environment === env);
  const file = persistent.data.file.replace("{environment}", env);
  const driftOf = (e: string) => persistent.data.environments.find((x) => x.environment === e)?.drift.length ?? 0;

  const saved = async (result: ConfigWriteResult) => {
    setOutcome(result);
    setMode("view");
    await queryClient.invalidateQueries({ queryKey: gitopsKeys.all(name) });
    router.refresh();
  };
  const edit = (from: ConfigView) => {
    setOutcome(null);
    setSeed(from);
    setMode("edit");
  };

  return (
    <div className="stack" data-testid="config-tab">
      <div className={styles.switcher} role="group" aria-label="Environment">
        {environments.map((e) => {
          const drift = driftOf(e);
          return (
            <button
              key={e}
              type="button"
              className={styles.pill}
              aria-pressed={e === env}
              onClick={() => {
                setEnv(e);
                if (mode === "edit") setMode("view");
              }}
              data-testid={`env-${e}`}
            >
              {e}
              {drift ? (
                <Badge tone="warning" className={styles.driftBadge} title={`${drift} key${drift === 1 ? "" : "s"} differ between current and persistent`}>
                  drift {drift}
                </Badge>
              ) : null}
            </button>
          );
        })}
      </div>

      {outcome ? <OutcomeAlert outcome={outcome} onShowMergeRequests={onShowMergeRequests} onDismiss={() => setOutcome(null)} /> : null}

      {mode === "bulk" && canOperate ? (
        <BulkEditor name={name} environments={environments} persistent={persistentValues} current={currentValues} onCancel={() => setMode("view")} onSaved={saved} />
      ) : mode === "edit" ? (
        <EnvironmentEditor
          key={`${env}-${seed}`}
          seed={seed}
          name={name}
          environment={env}
          file={file}
          canOperate={canOperate}
          canCommit={canCommit}
          persistent={persistentValues[env] ?? {}}
          current={currentValues[env] ?? {}}
          onCancel={() => setMode("view")}
          onSaved={saved}
        />
      ) : (
        <Card title={`${env}: current and persistent`}>
          <p className={`muted ${styles.lead}`}>
            Persistent values live in <code>{file}</code> in the config repository; the next release to {env} makes them current.{" "}
            {info?.source ? (
              <>
                Current values were set by {info.source === "release" ? "a release" : "a live edit"} by {info.updatedBy ?? "?"}{" "}
                <span title={info.updatedAt ?? undefined}>{when(info.updatedAt)}</span>.
              </>
            ) : (
              <>Nothing has been released to {env} yet, so it has no current values.</>
            )}
          </p>
          <CompareTable current={currentValues[env] ?? {}} persistent={persistentValues[env] ?? {}} />
          <div className={`row ${styles.actionsRow}`}>
            <Button variant="primary" onClick={() => edit("persistent")} data-testid="edit-config">
              Edit values
            </Button>
            {info?.source && driftOf(env) > 0 ? (
              <Button onClick={() => edit("current")} title="Start from the live values, so that saving makes them persistent" data-testid="persist-live">
                Persist the live values
              </Button>
            ) : null}
            {canOperate ? (
              <Button
                onClick={() => {
                  setOutcome(null);
                  setMode("bulk");
                }}
                data-testid="bulk-edit-config"
              >
                Bulk edit across environments
              </Button>
            ) : null}
            {!canCommit ? <span className="muted">Your changes are proposed as a merge request.</span> : null}
          </div>
        </Card>
      )}
    </div>
  );
}
