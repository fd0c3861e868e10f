"use client";
// The order wizard: three steps (basics; environments and resources; review), validated as you type
// with the catalog's own schema (validateOrder), and a live preview of the YAML record the merge request adds.
import Link from "next/link";
import { useMemo, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Checkbox, Field, Input, Select } from "@/components/ui";
import { COMPONENT_KINDS, DEPENDENCY_FLAGS, ENVIRONMENTS, LIBRARY_MODELS, type DependencyFlag, type FieldIssue } from "@/lib/catalog/schema";
import { buildRecord, formFieldOf, recordYaml, resourcesOf, validateOrder, type AppOrder, type OrderInput } from "@/lib/portal/app-orders/model";
import type { Component } from "@/lib/catalog/schema";
import { OrderApiError, orderKeys, submitOrder } from "./api";
import s from "./app-orders.module.css";

interface Form {
  name: string;
  displayName: string;
  kind: string;
  repoPath: string;
  owners: Array<{ user: string; group: string }>;
  environments: string[];
  dependencies: Partial<Record<DependencyFlag, boolean>>;
  libraryModel: string;
  libraryRegistry: string;
}

const DEPENDENCY_LABELS: Record<DependencyFlag, string> = { mongo: "MongoDB", redis: "Redis", pubsub: "Pub/Sub", gcpSecrets: "GCP secrets" };
const STEPS = ["Basics", "Environments and resources", "Review"] as const;
/** Which wizard fields each step owns (issue paths are mapped with formFieldOf). */
const STEP_FIELDS: Array<(field: string) => boolean> = [
  (f) => ["name", "displayName", "kind", "repoPath"].includes(f) || f.startsWith("owners"),
  (f) => /^(environments|dependencies|library|runtime)/.test(f),
  () => true,
];

function inputOf(form: Form): OrderInput {
  return {
    name: form.name,
    displayName: form.displayName,
    kind: form.kind,
    repoPath: form.repoPath,
    owners: form.owners.filter((o, i) => i === 0 || o.user.trim() || o.group.trim()).map((o) => (o.group.trim() ? { user: o.user, group: o.group } : { user: o.user })),
    environments: form.environments,
    dependencies: form.dependencies,
    ...(form.kind === "library" ? { library: { model: form.libraryModel, defaultRegistry: form.libraryRegistry } } : {}),
  };
}

export function OrderWizard({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>({
    name: "",
    displayName: "",
    kind: "service",
    repoPath: "",
    owners: [{ user: userId, group: "" }],
    environments: ["dev", "staging", "production"],
    dependencies: {},
    libraryModel: "single",
    libraryRegistry: "",
  });
  const [step, setStep] = useState(0);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [serverIssues, setServerIssues] = useState<FieldIssue[]>([]);
  const [created, setCreated] = useState<AppOrder | null>(null);

  const input = useMemo(() => inputOf(form), [form]);
  const validation = useMemo(() => validateOrder(input), [input]);
  const issues: FieldIssue[] = validation.ok ? serverIssues : [...validation.issues, ...serverIssues];
  const preview = useMemo(() => recordYaml(buildRecord(input) as unknown as Component), [input]);
  const resources = useMemo(() => (validation.ok ? resourcesOf(validation.component) : []), [validation]);

  const fieldIssues = (field: string) => issues.filter((i) => formFieldOf(i.path) === field || formFieldOf(i.path).startsWith(`${field}[`) || formFieldOf(i.path).startsWith(`${field}.`));
  const errorOf = (field: string) => (touched.has(field) || touched.has("*") ? fieldIssues(field).map((i) => i.message).join("; ") || undefined : undefined);
  const stepIssues = (n: number) => issues.filter((i) => STEP_FIELDS[n](formFieldOf(i.path)));

  const update = (patch: Partial<Form>, field: string) => {
    setForm((f) => ({ ...f, ...patch }));
    setTouched((t) => new Set(t).add(field));
    setServerIssues((list) => list.filter((i) => formFieldOf(i.path) !== field));
  };

  const submit = useMutation({
    mutationFn: () => submitOrder(input),
    onSuccess: (order) => {
      setCreated(order);
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
    },
    onError: (e) => {
      if (e instanceof OrderApiError) {
        if (e.issues.length) setServerIssues(e.issues);
        else if (e.status === 409) setServerIssues([{ path: "metadata.name", message: e.message }]);
        setTouched(new Set(["*"]));
        const first = e.issues[0] ?? (e.status === 409 ? { path: "metadata.name" } : null);
        if (first) setStep(STEP_FIELDS.findIndex((f) => f(formFieldOf(first.path))));
      }
    },
  });

  if (created) {
    return (
      <Card title="Order sent" data-testid="order-created">
        <Alert tone="success">
          Your order of <strong>{created.name}</strong> is waiting for a lead. It is merge request !{created.mergeRequest?.iid} in the config repository.
        </Alert>
        <div className="row">
          <Link href="/app-orders">See my orders</Link>
          <Button
            onClick={() => {
              setCreated(null);
              setForm((f) => ({ ...f, name: "", displayName: "", repoPath: "" }));
              setTouched(new Set());
              setStep(0);
            }}
          >
            Order another app
          </Button>
        </div>
      </Card>
    );
  }

  const next = () => {
    if (stepIssues(step).length > 0) {
      setTouched(new Set(["*"]));
      return;
    }
    setStep((n) => Math.min(n + 1, STEPS.length - 1));
  };

  return (
    <div className={s.layout}>
      <div className="stack">
        <ol className={s.steps} aria-label="Steps">
          {STEPS.map((label, i) => (
            <li key={label} className={i === step ? `${s.step} ${s.stepActive}` : s.step} aria-current={i === step ? "step" : undefined}>
              {i + 1}. {label}
            </li>
          ))}
        </ol>

        {step === 0 ? (
          <Card title="Basics">
            <Field label="Name" hint="Lowercase letters, digits and hyphens; the component's id in the catalog." error={errorOf("name")}>
              {(id) => <Input id={id} data-testid="order-name" value={form.name} autoComplete="off" onChange={(e) => update({ name: e.target.value }, "name")} />}
            </Field>
            <Field label="Display name" error={errorOf("displayName")}>
              {(id) => <Input id={id} data-testid="order-displayName" value={form.displayName} onChange={(e) => update({ displayName: e.target.value }, "displayName")} />}
            </Field>
            <Field label="Kind" error={errorOf("kind")}>
              {(id) => (
                <Select id={id} data-testid="order-kind" value={form.kind} onChange={(e) => update({ kind: e.target.value }, "kind")}>
                  {COMPONENT_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {k}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Repository path" hint="<group>/<project>, e.g. commerce/cart-api" error={errorOf("repoPath")}>
              {(id) => <Input id={id} data-testid="order-repoPath" value={form.repoPath} autoComplete="off" onChange={(e) => update({ repoPath: e.target.value }, "repoPath")} />}
            </Field>
            <fieldset className="stack">
              <legend>Owners</legend>
              {form.owners.map((o, i) => (
                <div key={i} className={s.owners}>
                  <Field label={`Owner ${i + 1} user`} error={errorOf(`owners[${i}].user`)}>
                    {(id) => (
                      <Input
                        id={id}
                        value={o.user}
                        onChange={(e) => update({ owners: form.owners.map((x, j) => (j === i ? { ...x, user: e.target.value } : x)) }, `owners[${i}].user`)}
                      />
                    )}
                  </Field>
                  <Field label={`Owner ${i + 1} group (optional)`} error={errorOf(`owners[${i}].group`)}>
                    {(id) => (
                      <Input
                        id={id}
                        value={o.group}
                        onChange={(e) => update({ owners: form.owners.map((x, j) => (j === i ? { ...x, group: e.target.value } : x)) }, `owners[${i}].group`)}
                      />
                    )}
                  </Field>
                  <Button variant="ghost" size="small" disabled={form.owners.length === 1} onClick={() => update({ owners: form.owners.filter((_, j) => j !== i) }, "owners")}>
                    Remove
                  </Button>
                </div>
              ))}
              {errorOf("owners") && !form.owners.length ? <span className="ui-field__error">{errorOf("owners")}</span> : null}
              <div>
                <Button size="small" onClick={() => update({ owners: [...form.owners, { user: "", group: "" }] }, "owners")}>
                  Add an owner
                </Button>
              </div>
            </fieldset>
          </Card>
        ) : null}

        {step === 1 ? (
          <Card title="Environments and resources">
            <fieldset>
              <legend>Environments</legend>
              <div className={s.checks}>
                {ENVIRONMENTS.map((env) => (
                  <Checkbox
                    key={env}
                    label={env}
                    checked={form.environments.includes(env)}
                    onChange={(e) =>
                      update({ environments: e.target.checked ? ENVIRONMENTS.filter((x) => x === env || form.environments.includes(x)) : form.environments.filter((x) => x !== env) }, "environments")
                    }
                  />
                ))}
              </div>
              {errorOf("environments") ? <span className="ui-field__error">{errorOf("environments")}</span> : null}
            </fieldset>
            <fieldset>
              <legend>Resources (requested in every environment above)</legend>
              <div className={s.checks}>
                {DEPENDENCY_FLAGS.map((flag) => (
                  <Checkbox
                    key={flag}
                    label={DEPENDENCY_LABELS[flag]}
                    checked={Boolean(form.dependencies[flag])}
                    onChange={(e) => update({ dependencies: { ...form.dependencies, [flag]: e.target.checked } }, "dependencies")}
                  />
                ))}
              </div>
            </fieldset>
            {form.kind === "library" ? (
              <fieldset className="stack">
                <legend>Library settings</legend>
                <Field label="Model" error={errorOf("library.model")}>
                  {(id) => (
                    <Select id={id} value={form.libraryModel} onChange={(e) => update({ libraryModel: e.target.value }, "library.model")}>
                      {LIBRARY_MODELS.map((m) => (
                        <option key={m} value={m}>
                          {m}
                        </option>
                      ))}
                    </Select>
                  )}
                </Field>
                <Field label="Default registry" hint="e.g. npm.example.com" error={errorOf("library.defaultRegistry")}>
                  {(id) => <Input id={id} value={form.libraryRegistry} onChange={(e) => update({ libraryRegistry: e.target.value }, "library.defaultRegistry")} />}
                </Field>
              </fieldset>
            ) : null}
          </Card>
        ) : null}

        {step === 2 ? (
          <Card title="Review">
            <p className="muted">
              Sending the order opens a merge request in the config repository that adds this record
              {resources.length ? ` and ${resources.length} resource request${resources.length === 1 ? "" : "s"}` : ""}. A lead approves (merges) or rejects it.
            </p>
            {resources.length ? (
              <ul data-testid="order-resources">
                {resources.map((r) => (
                  <li key={`${r.environment}-${r.resource}`}>
                    {DEPENDENCY_LABELS[r.resource]} in {r.environment ?? "every environment"}
                  </li>
                ))}
              </ul>
            ) : null}
            {issues.length ? (
              <Alert tone="error" data-testid="order-issues">
                <ul className={s.issues}>
                  {issues.map((i, n) => (
                    <li key={n}>
                      {i.path ? <code>{i.path}</code> : null} {i.message}
                    </li>
                  ))}
                </ul>
              </Alert>
            ) : null}
            {submit.error && !(submit.error instanceof OrderApiError && (submit.error.issues.length || submit.error.status === 409)) ? <Alert tone="error">{submit.error.message}</Alert> : null}
          </Card>
        ) : null}

        <div className="row">
          {step > 0 ? <Button onClick={() => setStep((n) => n - 1)}>Back</Button> : null}
          {step < STEPS.length - 1 ? (
            <Button variant="primary" onClick={next} data-testid="order-next">
              Next
            </Button>
          ) : (
            <Button variant="primary" data-testid="order-submit" disabled={!validation.ok || submit.isPending} onClick={() => submit.mutate()}>
              {submit.isPending ? "Sending…" : "Send the order"}
            </Button>
          )}
        </div>
      </div>
      <Card title="The record (YAML)">
        <pre className={s.preview} data-testid="order-preview">
          {preview}
        </pre>
      </Card>
    </div>
  );
}
