"use client";
// The Config tab: an environment switcher; current (live) against persistent (config repository)
// values side by side with the differences (drift) highlighted; an editor with a preview of the change
// before saving (engineers: a merge request; operators: a commit, or a live change); for operators a
// bulk editor across environments (one commit for all of them).
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import type { ConfigValues } from "@/lib/portal/gitops/values";
import { describeError, fetchConfig, gitopsKeys, saveConfig, saveConfigBulk, when, type ConfigAnswer, type ConfigView, type ConfigWriteResult } from "./api";
import {
  VALUE_TYPES,
  bulkFrom,
  bulkUpdates,
  changesOf,
  compareViews,
  draftFrom,
  emptyEntry,
  formatValue,
  newId,
  patchOf,
  valuesOf,
  type BulkRow,
  type Change,
  type DraftEntry,
  type ValueType,
} from "./config-edit";
import styles from "./gitops.module.css";

export interface ConfigTabProps {
  name: string;
  environments: string[];
  canOperate: boolean;
  onShowMergeRequests: () => void;
}

type Mode = "view" | "edit" | "bulk";

function byEnvironment(answer: ConfigAnswer | undefined): Record<string, ConfigValues> {
  return Object.fromEntries((answer?.environments ?? []).map((e) => [e.environment, e.values]));
}

export function ConfigTab({ name, environments, canOperate, onShowMergeRequests }: ConfigTabProps) {
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
    return <Alert tone="error">The config cannot be read: {describeError(persistent.error ?? current.error)}</Alert>;
  }

  const persistentValues = byEnvironment(persistent.data);
  const currentValues = byEnvironment(current.data);
  const info = current.data.environments.find((e) => e.environment === env);
  const file = persistent.data.file.replace("{environment}", env);

  const saved = async (result: ConfigWriteResult) => {
    setOutcome(result);
    setMode("view");
    await queryClient.invalidateQueries({ queryKey: gitopsKeys.all(name) });
    router.refresh();
  };

  return (
    <div className="stack" data-testid="config-tab">
      <div className={styles.switcher} role="group" aria-label="Environment">
        {environments.map((e) => {
          const drift = persistent.data.environments.find((x) => x.environment === e)?.drift.length ?? 0;
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
          persistent={persistentValues[env] ?? {}}
          current={currentValues[env] ?? {}}
          onCancel={() => setMode("view")}
          onSaved={saved}
        />
      ) : (
        <Card title={`${env}: current and persistent`}>
          <p className="muted" style={{ marginTop: 0 }}>
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
          <div className="row" style={{ marginTop: 12 }}>
            <Button
              variant="primary"
              onClick={() => {
                setOutcome(null);
                setSeed("persistent");
                setMode("edit");
              }}
              data-testid="edit-config"
            >
              Edit values
            </Button>
            {info?.source && (persistent.data.environments.find((x) => x.environment === env)?.drift.length ?? 0) > 0 ? (
              <Button
                onClick={() => {
                  setOutcome(null);
                  setSeed("current");
                  setMode("edit");
                }}
                title="Start from the live values, so that saving makes them persistent"
                data-testid="persist-live"
              >
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
            {!canOperate ? <span className="muted">Your changes are proposed as a merge request.</span> : null}
          </div>
        </Card>
      )}
    </div>
  );
}

function CompareTable({ current, persistent }: { current: ConfigValues; persistent: ConfigValues }) {
  const rows = compareViews(current, persistent);
  if (rows.length === 0) return <p className="muted">No values in either view yet.</p>;
  const drift = rows.filter((r) => r.drift).length;
  return (
    <>
      <table className="ui-table" data-testid="config-compare">
        <thead>
          <tr>
            <th>Key</th>
            <th>Current (live)</th>
            <th>Persistent (config repository)</th>
            <th aria-label="Difference" />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className={r.drift ? styles.drift : undefined} data-testid={`config-row-${r.key}`} data-drift={r.drift ? "true" : "false"}>
              <td className={styles.mono}>{r.key}</td>
              <td className={r.current === undefined ? styles.missing : styles.mono}>{r.current === undefined ? "not set" : formatValue(r.current)}</td>
              <td className={r.persistent === undefined ? styles.missing : styles.mono}>{r.persistent === undefined ? "not set" : formatValue(r.persistent)}</td>
              <td>{r.drift ? <Badge tone="warning">drift</Badge> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">{drift === 0 ? "Current and persistent values match." : `${drift} key${drift === 1 ? " differs" : "s differ"}: the next release makes the persistent values current.`}</p>
    </>
  );
}

function ChangeList({ changes, testId }: { changes: Change[]; testId?: string }) {
  return (
    <ul className={styles.preview} data-testid={testId}>
      {changes.map((c) => (
        <li key={c.key} className={c.op === "add" ? styles.add : c.op === "remove" ? styles.del : styles.chg}>
          {c.op === "add" ? `+ ${c.key}: ${formatValue(c.after)}` : c.op === "remove" ? `- ${c.key}: ${formatValue(c.before)}` : `~ ${c.key}: ${formatValue(c.before)} → ${formatValue(c.after)}`}
        </li>
      ))}
    </ul>
  );
}

function OutcomeAlert({ outcome, onShowMergeRequests, onDismiss }: { outcome: ConfigWriteResult; onShowMergeRequests: () => void; onDismiss: () => void }) {
  const envs = Object.keys(outcome.environments).join(", ");
  return (
    <Alert tone="success" data-testid="config-outcome">
      {outcome.mode === "merge_request" ? (
        <>
          Merge request <strong>!{outcome.mergeRequest.iid}</strong> opened: {outcome.mergeRequest.title}. Branch <code>{outcome.mergeRequest.sourceBranch}</code> →{" "}
          <code>{outcome.mergeRequest.targetBranch}</code>; the values change when it is merged.{" "}
          {outcome.mergeRequest.webUrl ? (
            <a href={outcome.mergeRequest.webUrl} target="_blank" rel="noreferrer">
              Open it
            </a>
          ) : null}{" "}
          <Button size="small" onClick={onShowMergeRequests} data-testid="show-merge-requests">
            Show merge requests
          </Button>
        </>
      ) : outcome.mode === "commit" ? (
        outcome.changed ? (
          <>
            Committed {outcome.commit ? <code>{outcome.commit.slice(0, 8)}</code> : null} to the config repository ({envs}). The next release makes it current.
          </>
        ) : (
          <>Nothing changed: the config repository already holds these values.</>
        )
      ) : (
        <>{outcome.changed ? `Live values of ${envs} changed; they show as drift until persisted.` : "Nothing changed."}</>
      )}{" "}
      <Button size="small" variant="ghost" onClick={onDismiss} aria-label="Dismiss">
        ✕
      </Button>
    </Alert>
  );
}

function TargetPicker({ target, onChange }: { target: ConfigView; onChange: (v: ConfigView) => void }) {
  return (
    <div className={styles.switcher} role="group" aria-label="Change">
      <span className="muted">Change:</span>
      <button type="button" className={styles.pill} aria-pressed={target === "persistent"} onClick={() => onChange("persistent")}>
        persistent (commit)
      </button>
      <button type="button" className={styles.pill} aria-pressed={target === "current"} onClick={() => onChange("current")}>
        current (live now)
      </button>
    </div>
  );
}

function ValueInput({ type, value, onChange, label, invalid }: { type: ValueType; value: string; onChange: (v: string) => void; label: string; invalid?: boolean }) {
  if (type === "boolean") {
    return (
      <Select aria-label={label} value={value === "true" || value === "false" ? value : ""} onChange={(e) => onChange(e.target.value)} className={invalid ? styles.invalid : undefined}>
        <option value="" disabled>
          choose
        </option>
        <option value="true">true</option>
        <option value="false">false</option>
      </Select>
    );
  }
  return <Input aria-label={label} value={value} inputMode={type === "number" ? "decimal" : undefined} onChange={(e) => onChange(e.target.value)} className={invalid ? styles.invalid : undefined} />;
}

/** Below both editors: add a key, what is wrong, and preview or cancel. */
function EditorActions(props: {
  testIds: { add: string; issues: string; preview: string };
  previewLabel: string;
  issues: Array<{ message: string }>;
  hasChanges: boolean;
  onAdd: () => void;
  onPreview: () => void;
  onCancel: () => void;
}) {
  const valid = props.issues.length === 0;
  return (
    <>
      <div>
        <Button size="small" onClick={props.onAdd} data-testid={props.testIds.add}>
          Add key
        </Button>
      </div>
      {valid ? null : (
        <Alert tone="error" data-testid={props.testIds.issues}>
          {props.issues.map((i) => i.message).join("; ")}
        </Alert>
      )}
      <div className="row">
        <Button variant="primary" disabled={!valid || !props.hasChanges} onClick={props.onPreview} data-testid={props.testIds.preview}>
          {props.previewLabel}
        </Button>
        <Button variant="ghost" onClick={props.onCancel}>
          Cancel
        </Button>
        {valid && !props.hasChanges ? <span className="muted">No changes yet.</span> : null}
      </div>
    </>
  );
}

function EnvironmentEditor(props: {
  seed: ConfigView;
  name: string;
  environment: string;
  file: string;
  canOperate: boolean;
  persistent: ConfigValues;
  current: ConfigValues;
  onCancel: () => void;
  onSaved: (r: ConfigWriteResult) => void;
}) {
  const [target, setTarget] = useState<ConfigView>("persistent");
  const base = target === "current" ? props.current : props.persistent;
  const [entries, setEntries] = useState<DraftEntry[]>(() => draftFrom(props.seed === "current" ? props.current : props.persistent));
  const [previewing, setPreviewing] = useState(false);
  const { values, issues } = valuesOf(entries);
  const patch = patchOf(base, values);
  const changes = changesOf(base, patch);
  const save = useMutation({ mutationFn: (body: Parameters<typeof saveConfig>[1]) => saveConfig(props.name, body), onSuccess: props.onSaved });

  const edit = (fn: (list: DraftEntry[]) => DraftEntry[]) => {
    setEntries(fn);
    setPreviewing(false);
    save.reset();
  };
  const issueOf = (id: string, field: "key" | "value") => issues.find((i) => i.id === id && i.field === field);

  const verb = !props.canOperate ? "Open merge request" : target === "current" ? "Apply live" : "Commit";
  return (
    <Card title={`Edit ${props.environment}`}>
      <div className="stack">
        {props.canOperate ? (
          <TargetPicker
            target={target}
            onChange={(t) => {
              setTarget(t);
              setEntries(draftFrom(t === "current" ? props.current : props.persistent));
              setPreviewing(false);
              save.reset();
            }}
          />
        ) : (
          <Alert tone="info" data-testid="merge-request-note">
            Saving will open a merge request in the config repository (<code>{props.file}</code>). The values change when it is merged.
          </Alert>
        )}
        {entries.length === 0 ? <p className="muted">No keys yet.</p> : null}
        {entries.map((e, i) => (
          <div key={e.id} className={styles.editorRow}>
            <Input aria-label={`Key ${i + 1}`} placeholder="KEY" value={e.key} onChange={(ev) => edit((l) => l.map((x) => (x.id === e.id ? { ...x, key: ev.target.value } : x)))} className={issueOf(e.id, "key") ? styles.invalid : undefined} />
            <Select
              aria-label={`Type ${i + 1}`}
              value={e.type}
              onChange={(ev) => {
                const type = ev.target.value as ValueType;
                edit((l) => l.map((x) => (x.id === e.id ? { ...x, type, text: type === "boolean" && x.text !== "true" ? "false" : x.text } : x)));
              }}
            >
              {VALUE_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </Select>
            <ValueInput type={e.type} label={`Value ${i + 1}`} value={e.text} onChange={(text) => edit((l) => l.map((x) => (x.id === e.id ? { ...x, text } : x)))} invalid={!!issueOf(e.id, "value")} />
            <Button size="small" variant="ghost" aria-label={`Remove ${e.key || `key ${i + 1}`}`} onClick={() => edit((l) => l.filter((x) => x.id !== e.id))}>
              ✕
            </Button>
          </div>
        ))}
        <EditorActions
          testIds={{ add: "add-key", issues: "config-issues", preview: "preview-config" }}
          previewLabel="Preview change"
          issues={issues}
          hasChanges={changes.length > 0}
          onAdd={() => edit((l) => [...l, emptyEntry()])}
          onPreview={() => setPreviewing(true)}
          onCancel={props.onCancel}
        />
        {previewing && issues.length === 0 && changes.length > 0 ? (
          <div className="stack" data-testid="config-preview-panel">
            <h3 style={{ margin: 0 }}>
              The change to {target === "current" ? `the live values of ${props.environment}` : <code>{props.file}</code>}
            </h3>
            <ChangeList changes={changes} testId="config-preview" />
            <p className="muted" style={{ margin: 0 }}>
              {!props.canOperate
                ? "This will open a merge request; reviewers merge it into the config repository."
                : target === "current"
                  ? `This changes what runs in ${props.environment} now; it shows as drift until the persistent values match.`
                  : `This commits to the config repository's default branch; the next release to ${props.environment} makes it current.`}
            </p>
            {save.isError ? <Alert tone="error">Not saved: {describeError(save.error)}</Alert> : null}
            <div className="row">
              <Button variant="primary" onClick={() => save.mutate({ environment: props.environment, values: patch, view: target })} disabled={save.isPending} data-testid="save-config">
                {save.isPending ? "Saving…" : verb}
              </Button>
              <Button variant="ghost" onClick={() => setPreviewing(false)} disabled={save.isPending}>
                Back to editing
              </Button>
            </div>
          </div>
        ) : null}
      </div>
    </Card>
  );
}

function BulkEditor(props: {
  name: string;
  environments: string[];
  persistent: Record<string, ConfigValues>;
  current: Record<string, ConfigValues>;
  onCancel: () => void;
  onSaved: (r: ConfigWriteResult) => void;
}) {
  const [target, setTarget] = useState<ConfigView>("persistent");
  const base = target === "current" ? props.current : props.persistent;
  const [rows, setRows] = useState<BulkRow[]>(() => bulkFrom(props.environments, props.persistent));
  const [previewing, setPreviewing] = useState(false);
  const { updates, issues } = bulkUpdates(props.environments, base, rows);
  const save = useMutation({ mutationFn: (body: Parameters<typeof saveConfigBulk>[1]) => saveConfigBulk(props.name, body), onSuccess: props.onSaved });
  const edit = (fn: (rows: BulkRow[]) => BulkRow[]) => {
    setRows(fn);
    setPreviewing(false);
    save.reset();
  };
  const setCell = (id: string, env: string, text: string | null) => edit((l) => l.map((r) => (r.id === id ? { ...r, cells: { ...r.cells, [env]: text } } : r)));
  const blank = (type: ValueType) => (type === "number" ? "0" : type === "boolean" ? "false" : "");

  return (
    <Card title="Bulk edit across environments">
      <div className="stack">
        <TargetPicker
          target={target}
          onChange={(t) => {
            setTarget(t);
            setRows(bulkFrom(props.environments, t === "current" ? props.current : props.persistent));
            setPreviewing(false);
            save.reset();
          }}
        />
        <p className="muted" style={{ margin: 0 }}>
          One row per key, one column per environment. All changes are saved together {target === "persistent" ? "as one commit" : "at once"}, or none is.
        </p>
        <div style={{ overflowX: "auto" }}>
          <table className={`ui-table ${styles.bulkTable}`} data-testid="bulk-table">
            <thead>
              <tr>
                <th>Key</th>
                <th>Type</th>
                {props.environments.map((env) => (
                  <th key={env}>{env}</th>
                ))}
                <th aria-label="Remove" />
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={r.id}>
                  <td>
                    <Input aria-label={`Bulk key ${i + 1}`} placeholder="KEY" value={r.key} onChange={(e) => edit((l) => l.map((x) => (x.id === r.id ? { ...x, key: e.target.value } : x)))} />
                  </td>
                  <td>
                    <Select aria-label={`Bulk type ${i + 1}`} value={r.type} onChange={(e) => edit((l) => l.map((x) => (x.id === r.id ? { ...x, type: e.target.value as ValueType } : x)))}>
                      {VALUE_TYPES.map((t) => (
                        <option key={t}>{t}</option>
                      ))}
                    </Select>
                  </td>
                  {props.environments.map((env) => {
                    const cell = r.cells[env] ?? null;
                    return (
                      <td key={env}>
                        {cell === null ? (
                          <Button size="small" variant="ghost" onClick={() => setCell(r.id, env, blank(r.type))} aria-label={`Set ${r.key || `key ${i + 1}`} in ${env}`}>
                            not set · set
                          </Button>
                        ) : (
                          <div className={styles.cell}>
                            <ValueInput type={r.type} label={`${r.key || `key ${i + 1}`} in ${env}`} value={cell} onChange={(text) => setCell(r.id, env, text)} />
                            <Button size="small" variant="ghost" onClick={() => setCell(r.id, env, null)} aria-label={`Unset ${r.key || `key ${i + 1}`} in ${env}`}>
                              ✕
                            </Button>
                          </div>
                        )}
                      </td>
                    );
                  })}
                  <td>
                    <Button size="small" variant="ghost" onClick={() => edit((l) => l.filter((x) => x.id !== r.id))} aria-label={`Remove ${r.key || `key ${i + 1}`} everywhere`}>
                      Remove
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <EditorActions
          testIds={{ add: "bulk-add-key", issues: "bulk-issues", preview: "preview-bulk" }}
          previewLabel="Preview changes"
          issues={issues}
          hasChanges={updates.length > 0}
          onAdd={() => edit((l) => [...l, { id: newId(), key: "", type: "text", cells: Object.fromEntries(props.environments.map((e) => [e, ""])) }])}
          onPreview={() => setPreviewing(true)}
          onCancel={props.onCancel}
        />
        {previewing && issues.length === 0 && updates.length > 0 ? (
          <div className="stack" data-testid="bulk-preview">
            {updates.map((u) => (
              <div key={u.environment}>
                <h3 style={{ margin: "0 0 4px" }}>{u.environment}</h3>
                <ChangeList changes={u.changes} />
              </div>
            ))}
            {save.isError ? <Alert tone="error">Nothing was saved: {describeError(save.error)}</Alert> : null}
            <div className="row">
              <Button variant="primary" onClick={() => save.mutate({ updates: updates.map((u) => ({ environment: u.environment, values: u.values })), view: target })} disabled={save.isPending} data-testid="save-bulk">
                {save.isPending ? "Saving…" : target === "current" ? `Apply live to ${updates.length} environment${updates.length === 1 ? "" : "s"}` : `Commit ${updates.length} environment${updates.length === 1 ? "" : "s"}`}
              </Button>
              <Button variant="ghost" onClick={() => setPreviewing(false)} disabled={save.isPending}>
                Back to editing
              </Button>
            </div>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
