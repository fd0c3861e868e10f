"use client";
// The edit form of a component record: checked as you type with the catalog's own schema
// (componentSchema), then the YAML diff of exactly what will be committed, then the save (If-Match
// with the ETag it was loaded with).
import { useMemo, useState } from "react";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { useSingleFlightMutation } from "@/components/forms/use-single-flight-mutation";
import { FormProvider, useForm, useWatch, type Resolver } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Card, Field, Input, Select } from "@/components/ui";
import { ApiError, describeApiError } from "@/components/http/api-client";
import { errorEntries, issueAt, recordIssueSentence } from "@/components/forms/error-messages";
import { useLiveValidation } from "@/components/forms/use-live-validation";
import { COMPONENT_KINDS, componentSchema, type Component } from "@/lib/catalog/schema";
import { renderUpdate } from "@/lib/catalog/writeback";
import { hasChanges, lineDiff } from "@/lib/catalog/diff";
import { isProposal, saveComponent, type CommittedAnswer, type ProposalAnswer } from "../api";
import { cleanDraft } from "./record-draft";
import { OwnersFieldset } from "./owners-fieldset";
import { AboutFieldset } from "./about-fieldset";
import { EnvironmentsFieldset } from "./environments-fieldset";
import { RuntimeFieldset } from "./runtime-fieldset";
import { LibraryFieldset } from "./library-fieldset";
import { DependenciesFieldset } from "./dependencies-fieldset";
import { RelationsFieldset } from "./relations-fieldset";
import styles from "../catalog.module.css";

const checkRecord = zodResolver(componentSchema);
/** The draft is checked as the record it stands for (empty optional text left out). */
const recordResolver: Resolver<Component> = (values, context, options) => checkRecord(cleanDraft(values), context, options);

/** What a save failure says: a conflict asks for a reload. */
function failureOf(error: unknown): { message: string; conflict: boolean } {
  if (error instanceof ApiError && error.code === "precondition-failed") return { message: "Someone changed this component after you opened it. Reload to see their change, then edit again.", conflict: true };
  if (error instanceof ApiError && error.code === "invalid-record") return { message: `The server refused the record: ${describeApiError(error)}`, conflict: false };
  return { message: describeApiError(error), conflict: false };
}

export interface ComponentEditFormProps {
  name: string;
  component: Component;
  yaml: string;
  etag: string;
  /** Operators and the component's owners commit; anyone else proposes a merge request (the server decides again). */
  canCommit: boolean;
  onCancel: () => void;
  onSaved: (answer: CommittedAnswer) => void;
  onProposed: (answer: ProposalAnswer) => void;
}

export function ComponentEditForm({ name, component, yaml, etag, canCommit, onCancel, onSaved, onProposed }: ComponentEditFormProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useForm<Component>({ resolver: recordResolver, defaultValues: structuredClone(component) });
  const [reviewed, setReviewed] = useState<Component | null>(null);
  const save = useSingleFlightMutation({
    mutationFn: (record: Component) => saveComponent(name, record, etag),
    onSuccess: async (answer) => {
      if (isProposal(answer)) {
        await queryClient.invalidateQueries({ queryKey: ["reviews"] });
        onProposed(answer);
        return;
      }
      await queryClient.invalidateQueries({ queryKey: ["catalog"] });
      router.refresh();
      onSaved(answer);
    },
  });
  // Any edit takes the review (and a failed save's message) away.
  useLiveValidation(form, () => {
    setReviewed(null);
    save.reset();
  });

  const draft = useWatch({ control: form.control }) as Component;
  const issues = errorEntries(form.formState.errors);
  const valid = issues.length === 0;
  // What would be committed, as the schema answers it (trimmed): the diff and whether anything changed.
  const diff = useMemo(() => {
    const parsed = componentSchema.safeParse(cleanDraft(draft));
    return lineDiff(yaml, parsed.success ? renderUpdate(yaml, parsed.data as unknown as Record<string, unknown>) : yaml);
  }, [draft, yaml]);
  const changed = hasChanges(diff);
  const failure = save.isError ? failureOf(save.error) : null;

  return (
    <Card title="Edit component">
      <FormProvider {...form}>
        <form className="stack" onSubmit={form.handleSubmit((record) => changed && setReviewed(record))} data-testid="edit-form" noValidate>
          <div className={styles.form}>
            <Field label="Display name" error={issueAt(issues, "metadata.displayName")}>
              {(id) => <Input id={id} data-testid="field-displayName" {...form.register("metadata.displayName")} />}
            </Field>
            <Field label="Kind" error={issueAt(issues, "spec.kind")}>
              {(id) => (
                <Select id={id} {...form.register("spec.kind")}>
                  {COMPONENT_KINDS.map((k) => (
                    <option key={k}>{k}</option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Repository path" hint="<group>/<project>" error={issueAt(issues, "spec.repo.path")}>
              {(id) => <Input id={id} data-testid="field-repo" {...form.register("spec.repo.path")} />}
            </Field>
          </div>
          <AboutFieldset />
          <OwnersFieldset />
          <EnvironmentsFieldset />
          <RuntimeFieldset />
          <LibraryFieldset />
          <DependenciesFieldset />
          <RelationsFieldset />

          {!valid ? (
            <Alert tone="error" data-testid="edit-issues">
              {issues.length === 1 ? "1 problem" : `${issues.length} problems`}: {issues.map((i) => recordIssueSentence(i.path, i.message)).join("; ")}
            </Alert>
          ) : null}

          <div className="row">
            {/* Enabled while there are problems: submitting then moves focus to the first field with one. */}
            <Button type="submit" variant="primary" disabled={valid && !changed} data-testid="review-changes">
              Review changes
            </Button>
            <Button variant="ghost" onClick={onCancel}>
              Cancel
            </Button>
            {valid && !changed ? <span className="muted">No changes yet.</span> : null}
          </div>
        </form>
      </FormProvider>

      {reviewed && valid ? (
        <div className={`stack ${styles.reviewPanel}`}>
          <h3>The change to {name}.yaml</h3>
          {!canCommit ? (
            <p className="muted" data-testid="proposal-note">
              You do not own {name}: your change is proposed as a merge request, and its owners or an operator review and merge it.
            </p>
          ) : null}
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
            <Button variant="primary" onClick={() => save.mutate(reviewed)} disabled={save.isPending} data-testid="save-component">
              {canCommit ? (save.isPending ? "Saving…" : "Save and commit") : save.isPending ? "Proposing…" : "Propose change"}
            </Button>
            <Button variant="ghost" onClick={() => setReviewed(null)}>
              Back to editing
            </Button>
          </div>
        </div>
      ) : null}
    </Card>
  );
}
