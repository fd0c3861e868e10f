"use client";
// One component: overview (owners, repository, environments, runtime, dependencies, library),
// the favorite star, and for engineers an edit form validated as you type that shows the YAML diff
// of exactly what will be committed before saving (If-Match with the ETag it was loaded with).
import Link from "next/link";
import { useMemo, useState } from "react";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox, Field, Input, Select } from "@/components/ui/input";
import { COMPONENT_KINDS, DEPENDENCY_FLAGS, ENVIRONMENTS, LIBRARY_MODELS, MOBILE_PLATFORMS, validateComponent, type Component, type Environment, type FieldIssue } from "@/lib/catalog/schema";
import { renderUpdate } from "@/lib/catalog/writeback";
import { hasChanges, lineDiff } from "@/lib/catalog/diff";
import type { ComponentStatus } from "@/lib/catalog/status";
import styles from "./catalog.module.css";
import { ApiError, saveComponent } from "./api";
import { StarButton } from "./star-button";

export interface ComponentViewProps {
  name: string;
  file: string;
  component: Component;
  yaml: string;
  etag: string;
  stale: boolean;
  staleReason: string | null;
  favorite: boolean;
  canEdit: boolean;
  status: ComponentStatus;
}

export function ComponentView(props: ComponentViewProps) {
  const [current, setCurrent] = useState({ component: props.component, yaml: props.yaml, etag: props.etag, stale: props.stale });
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const c = current.component;
  const spec = c.spec;
  return (
    <div className="stack">
      <p>
        <Link href="/catalog">← Catalog</Link>
      </p>
      <div className="row">
        <StarButton name={props.name} initial={props.favorite} />
        <h1 style={{ margin: 0 }} data-testid="component-title">
          {c.metadata.displayName}
        </h1>
        <Badge tone="accent">{spec.kind}</Badge>
        {current.stale ? <Badge tone="warning">stale</Badge> : null}
      </div>
      <p className="muted" style={{ margin: 0 }}>
        <code>{props.name}</code> · <code>{props.file}</code>
      </p>
      {current.stale ? <Alert tone="warning">The file no longer loads ({props.staleReason}); this is its last valid version. Saving writes a valid record over it.</Alert> : null}
      {saved ? <Alert tone="success">Saved and committed.</Alert> : null}

      <div className={styles.grid}>
        <Card title="Ownership">
          <dl className={styles.dl}>
            <dt>Repository</dt>
            <dd>
              <code>{spec.repo.path}</code>
            </dd>
            {spec.owners.map((o, i) => (
              <OwnerLine key={i} user={o.user} group={o.group} first={i === 0} />
            ))}
          </dl>
        </Card>
        <Card title="Environments">
          {props.status.environments.length === 0 ? (
            <p className="muted">Not deployed to any environment.</p>
          ) : (
            <table className="ui-table" style={{ width: "100%" }}>
              <thead>
                <tr>
                  <th>Environment</th>
                  <th>Namespace</th>
                  <th>Deployed</th>
                </tr>
              </thead>
              <tbody>
                {props.status.environments.map((e) => (
                  <tr key={e.environment}>
                    <td>{e.environment}</td>
                    <td>{e.namespace ? <code>{e.namespace}</code> : <span className="muted">—</span>}</td>
                    <td>{e.deployedVersion ?? <span className="muted">—</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p className="muted">Open merge requests: {props.status.openMergeRequests}</p>
        </Card>
        <Card title="Runtime">
          <dl className={styles.dl}>
            {spec.runtime?.k8s ? (
              <>
                <dt>Kubernetes</dt>
                <dd>
                  contract <code>{spec.runtime.k8s.deploymentContractPath}</code>
                </dd>
              </>
            ) : null}
            {spec.runtime?.mobile ? (
              <>
                <dt>Mobile</dt>
                <dd>{spec.runtime.mobile.platforms.join(", ")}</dd>
              </>
            ) : null}
            {!spec.runtime?.k8s && !spec.runtime?.mobile ? (
              <>
                <dt>Runtime</dt>
                <dd className="muted">none</dd>
              </>
            ) : null}
            <dt>Dependencies</dt>
            <dd>
              {DEPENDENCY_FLAGS.filter((d) => spec.dependencies?.[d]).join(", ") || <span className="muted">none</span>}
            </dd>
          </dl>
        </Card>
        {spec.library ? (
          <Card title="Library">
            <dl className={styles.dl}>
              <dt>Model</dt>
              <dd>{spec.library.model}</dd>
              <dt>Registry</dt>
              <dd>
                <code>{spec.library.defaultRegistry}</code>
              </dd>
              {spec.library.publish ? (
                <>
                  <dt>Publish</dt>
                  <dd>{spec.library.publish.strategy}</dd>
                  <dt>Visibility</dt>
                  <dd>
                    {spec.library.publish.visibilityPolicy.default}
                    {spec.library.publish.visibilityPolicy.allowPublic ? " (public allowed)" : " (never public)"}
                  </dd>
                </>
              ) : (
                <>
                  <dt>Publish</dt>
                  <dd className="muted">no policy</dd>
                </>
              )}
            </dl>
          </Card>
        ) : null}
      </div>

      {props.canEdit ? (
        editing ? (
          <EditForm
            key={current.etag}
            name={props.name}
            component={c}
            yaml={current.yaml}
            etag={current.etag}
            onCancel={() => setEditing(false)}
            onSaved={(next) => {
              setCurrent(next);
              setEditing(false);
              setSaved(true);
            }}
          />
        ) : (
          <div>
            <Button
              onClick={() => {
                setSaved(false);
                setEditing(true);
              }}
              data-testid="edit-component"
            >
              Edit
            </Button>
          </div>
        )
      ) : null}
    </div>
  );
}

function OwnerLine({ user, group, first }: { user: string; group?: string; first: boolean }) {
  return (
    <>
      <dt>{first ? "Owners" : ""}</dt>
      <dd>
        {user}
        {group ? <span className="muted"> · {group}</span> : null}
      </dd>
    </>
  );
}

interface Saved {
  component: Component;
  yaml: string;
  etag: string;
  stale: boolean;
}

function issueFor(issues: FieldIssue[], prefix: string): string | undefined {
  return issues.find((i) => i.path === prefix || i.path.startsWith(`${prefix}.`) || i.path.startsWith(`${prefix}[`))?.message;
}

function EditForm({ name, component, yaml, etag, onCancel, onSaved }: { name: string; component: Component; yaml: string; etag: string; onCancel: () => void; onSaved: (s: Saved) => void }) {
  const [draft, setDraft] = useState<Component>(() => structuredClone(component));
  const [reviewing, setReviewing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<{ message: string; conflict: boolean } | null>(null);
  const router = useRouter();
  const queryClient = useQueryClient();

  const validation = useMemo(() => validateComponent(draft), [draft]);
  const issues = validation.ok ? [] : validation.issues;
  const newYaml = useMemo(() => (validation.ok ? renderUpdate(yaml, validation.component as unknown as Record<string, unknown>) : yaml), [validation, yaml]);
  const diff = useMemo(() => lineDiff(yaml, newYaml), [yaml, newYaml]);
  const changed = hasChanges(diff);

  const edit = (fn: (d: Component) => void) => {
    setDraft((d) => {
      const next = structuredClone(d);
      fn(next);
      return next;
    });
    setReviewing(false);
  };

  const save = async () => {
    if (!validation.ok) return;
    setSaving(true);
    setFailure(null);
    try {
      const answer = await saveComponent(name, validation.component, etag);
      await queryClient.invalidateQueries({ queryKey: ["catalog"] });
      router.refresh();
      onSaved({ component: answer.component, yaml: answer.yaml, etag: answer.etag, stale: answer.stale });
    } catch (e) {
      const err = e as ApiError;
      if (err.status === 412) setFailure({ message: "Someone changed this component after you opened it. Reload to see their change, then edit again.", conflict: true });
      else if (err.status === 422) setFailure({ message: `The server refused the record: ${(err.body.issues ?? []).map((i) => `${i.path}: ${i.message}`).join("; ") || err.message}`, conflict: false });
      else setFailure({ message: err.message || "Saving failed.", conflict: false });
    } finally {
      setSaving(false);
    }
  };

  const envs = draft.spec.environments;
  return (
    <Card title="Edit component">
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (validation.ok && changed) setReviewing(true);
        }}
        data-testid="edit-form"
      >
        <div className={styles.form}>
          <Field label="Display name" error={issueFor(issues, "metadata.displayName")}>
            {(id) => <Input id={id} value={draft.metadata.displayName} onChange={(e) => edit((d) => void (d.metadata.displayName = e.target.value))} data-testid="field-displayName" />}
          </Field>
          <Field label="Kind" error={issueFor(issues, "spec.kind")}>
            {(id) => (
              <Select id={id} value={draft.spec.kind} onChange={(e) => edit((d) => void (d.spec.kind = e.target.value as Component["spec"]["kind"]))}>
                {COMPONENT_KINDS.map((k) => (
                  <option key={k}>{k}</option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Repository path" hint="<group>/<project>" error={issueFor(issues, "spec.repo.path")}>
            {(id) => <Input id={id} value={draft.spec.repo.path} onChange={(e) => edit((d) => void (d.spec.repo.path = e.target.value))} data-testid="field-repo" />}
          </Field>
        </div>

        <fieldset className="stack" style={{ border: "none", padding: 0, margin: 0 }}>
          <legend>Owners</legend>
          {draft.spec.owners.map((o, i) => (
            <div key={i} className={styles.ownerRow}>
              <Input aria-label={`Owner ${i + 1} user`} placeholder="user" value={o.user} onChange={(e) => edit((d) => void (d.spec.owners[i].user = e.target.value))} />
              <Input
                aria-label={`Owner ${i + 1} group`}
                placeholder="group (optional)"
                value={o.group ?? ""}
                onChange={(e) =>
                  edit((d) => {
                    if (e.target.value) d.spec.owners[i].group = e.target.value;
                    else delete d.spec.owners[i].group;
                  })
                }
              />
              <Button size="small" variant="ghost" onClick={() => edit((d) => void d.spec.owners.splice(i, 1))} aria-label={`Remove owner ${i + 1}`}>
                ✕
              </Button>
            </div>
          ))}
          {issueFor(issues, "spec.owners") ? (
            <span className="ui-field__error" role="alert">
              {issueFor(issues, "spec.owners")}
            </span>
          ) : null}
          <div>
            <Button size="small" onClick={() => edit((d) => void d.spec.owners.push({ user: "" }))}>
              Add owner
            </Button>
          </div>
        </fieldset>

        <fieldset className="row" style={{ border: "none", padding: 0, margin: 0 }}>
          <legend>Environments</legend>
          {ENVIRONMENTS.map((env) => (
            <Checkbox
              key={env}
              label={env}
              checked={envs.includes(env)}
              onChange={(e) =>
                edit((d) => {
                  const on = e.target.checked;
                  d.spec.environments = ENVIRONMENTS.filter((x) => (x === env ? on : d.spec.environments.includes(x))) as Environment[];
                  if (!on && d.spec.runtime?.k8s?.namespaces) delete d.spec.runtime.k8s.namespaces[env];
                })
              }
            />
          ))}
        </fieldset>
        {issueFor(issues, "spec.environments") || issueFor(issues, "spec.runtime") ? (
          <span className="ui-field__error" role="alert">
            {issueFor(issues, "spec.environments") ?? issueFor(issues, "spec.runtime")}
          </span>
        ) : null}

        {draft.spec.runtime?.k8s ? (
          <div className={styles.form}>
            {envs.map((env) => (
              <Field key={env} label={`Namespace (${env})`} error={issueFor(issues, `spec.runtime.k8s.namespaces.${env}`)}>
                {(id) => (
                  <Input
                    id={id}
                    value={draft.spec.runtime?.k8s?.namespaces?.[env] ?? ""}
                    onChange={(e) =>
                      edit((d) => {
                        const k8s = d.spec.runtime!.k8s!;
                        const ns = { ...(k8s.namespaces ?? {}) };
                        if (e.target.value) ns[env] = e.target.value;
                        else delete ns[env];
                        if (Object.keys(ns).length) k8s.namespaces = ns;
                        else delete k8s.namespaces;
                      })
                    }
                  />
                )}
              </Field>
            ))}
          </div>
        ) : null}

        <fieldset className="stack" style={{ border: "none", padding: 0, margin: 0 }}>
          <legend>Runtime</legend>
          <div className="row">
            <Checkbox
              label="Kubernetes"
              checked={!!draft.spec.runtime?.k8s}
              onChange={(e) =>
                edit((d) => {
                  const runtime = { ...(d.spec.runtime ?? {}) };
                  if (e.target.checked) runtime.k8s = { deploymentContractPath: "deploy/contract.yaml" };
                  else delete runtime.k8s;
                  if (runtime.k8s || runtime.mobile) d.spec.runtime = runtime;
                  else delete d.spec.runtime;
                })
              }
            />
            {MOBILE_PLATFORMS.map((platform) => (
              <Checkbox
                key={platform}
                label={`mobile: ${platform}`}
                checked={draft.spec.runtime?.mobile?.platforms.includes(platform) ?? false}
                onChange={(e) =>
                  edit((d) => {
                    const runtime = { ...(d.spec.runtime ?? {}) };
                    const current = runtime.mobile?.platforms ?? [];
                    const platforms = MOBILE_PLATFORMS.filter((p) => (p === platform ? e.target.checked : current.includes(p)));
                    if (platforms.length) runtime.mobile = { platforms };
                    else delete runtime.mobile;
                    if (runtime.k8s || runtime.mobile) d.spec.runtime = runtime;
                    else delete d.spec.runtime;
                  })
                }
              />
            ))}
          </div>
          {draft.spec.runtime?.k8s ? (
            <Field label="Deployment contract path" error={issueFor(issues, "spec.runtime.k8s.deploymentContractPath")}>
              {(id) => <Input id={id} value={draft.spec.runtime?.k8s?.deploymentContractPath ?? ""} onChange={(e) => edit((d) => void (d.spec.runtime!.k8s!.deploymentContractPath = e.target.value))} />}
            </Field>
          ) : null}
        </fieldset>

        <fieldset className="stack" style={{ border: "none", padding: 0, margin: 0 }}>
          <legend>Library</legend>
          <Checkbox
            label="This component is a library"
            checked={!!draft.spec.library}
            onChange={(e) =>
              edit((d) => {
                if (e.target.checked) d.spec.library = { model: "single", defaultRegistry: "" };
                else delete d.spec.library;
              })
            }
          />
          {draft.spec.library ? (
            <div className={styles.form}>
              <Field label="Model" error={issueFor(issues, "spec.library.model")}>
                {(id) => (
                  <Select id={id} value={draft.spec.library!.model} onChange={(e) => edit((d) => void (d.spec.library!.model = e.target.value as "monorepo" | "single"))}>
                    {LIBRARY_MODELS.map((m) => (
                      <option key={m}>{m}</option>
                    ))}
                  </Select>
                )}
              </Field>
              <Field label="Default registry" error={issueFor(issues, "spec.library.defaultRegistry")}>
                {(id) => <Input id={id} value={draft.spec.library!.defaultRegistry} onChange={(e) => edit((d) => void (d.spec.library!.defaultRegistry = e.target.value))} />}
              </Field>
              <Checkbox
                label="Publish policy"
                checked={!!draft.spec.library.publish}
                onChange={(e) =>
                  edit((d) => {
                    if (e.target.checked) d.spec.library!.publish = { strategy: "tag", visibilityPolicy: { default: "internal", allowPublic: false } };
                    else delete d.spec.library!.publish;
                  })
                }
              />
              {draft.spec.library.publish ? (
                <>
                  <Field label="Publish strategy" error={issueFor(issues, "spec.library.publish.strategy")}>
                    {(id) => <Input id={id} value={draft.spec.library!.publish!.strategy} onChange={(e) => edit((d) => void (d.spec.library!.publish!.strategy = e.target.value))} />}
                  </Field>
                  <Field label="Default visibility" error={issueFor(issues, "spec.library.publish.visibilityPolicy.default")}>
                    {(id) => (
                      <Input id={id} value={draft.spec.library!.publish!.visibilityPolicy.default} onChange={(e) => edit((d) => void (d.spec.library!.publish!.visibilityPolicy.default = e.target.value))} />
                    )}
                  </Field>
                  <Checkbox
                    label="Public allowed"
                    checked={draft.spec.library.publish.visibilityPolicy.allowPublic}
                    onChange={(e) => edit((d) => void (d.spec.library!.publish!.visibilityPolicy.allowPublic = e.target.checked))}
                  />
                </>
              ) : null}
            </div>
          ) : null}
        </fieldset>

        <fieldset className="row" style={{ border: "none", padding: 0, margin: 0 }}>
          <legend>Dependencies</legend>
          {DEPENDENCY_FLAGS.map((flag) => (
            <Checkbox
              key={flag}
              label={flag}
              checked={draft.spec.dependencies?.[flag] === true}
              onChange={(e) =>
                edit((d) => {
                  d.spec.dependencies = { ...(d.spec.dependencies ?? {}), [flag]: e.target.checked };
                })
              }
            />
          ))}
        </fieldset>

        {!validation.ok ? (
          <Alert tone="error" data-testid="edit-issues">
            {issues.length === 1 ? "1 problem" : `${issues.length} problems`}: {issues.map((i) => `${i.path}: ${i.message}`).join("; ")}
          </Alert>
        ) : null}

        <div className="row">
          <Button type="submit" variant="primary" disabled={!validation.ok || !changed} data-testid="review-changes">
            Review changes
          </Button>
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
          {validation.ok && !changed ? <span className="muted">No changes yet.</span> : null}
        </div>
      </form>

      {reviewing && validation.ok ? (
        <div className="stack" style={{ marginTop: 12 }}>
          <h3>The change to {name}.yaml</h3>
          <pre className={styles.diff} data-testid="yaml-diff">
            {diff.map((l, i) => (
              <span key={i} className={l.op === "+" ? styles.add : l.op === "-" ? styles.del : undefined}>
                {l.op} {l.text}
              </span>
            ))}
          </pre>
          {failure ? (
            <Alert tone="error">
              {failure.message}{" "}
              {failure.conflict ? (
                <Button size="small" onClick={() => window.location.reload()}>
                  Reload
                </Button>
              ) : null}
            </Alert>
          ) : null}
          <div className="row">
            <Button variant="primary" onClick={save} disabled={saving} data-testid="save-component">
              {saving ? "Saving…" : "Save and commit"}
            </Button>
            <Button variant="ghost" onClick={() => setReviewing(false)}>
              Back to editing
            </Button>
          </div>
        </div>
      ) : null}
    </Card>
  );
}
