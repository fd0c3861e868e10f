"use client";
// The editor of one environment's values: typed keys, checked as you type (config-form.ts), a
// preview of the change, then the save: a merge request (engineers), a commit or a live change (operators).
import { useState } from "react";
import { useFieldArray, useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Card, Input, Select } from "@/components/ui";
import { errorMessages } from "@/components/forms/error-messages";
import type { ConfigValues } from "@/lib/portal/gitops/config-values";
import { saveConfig, type ConfigView, type ConfigWriteResult } from "../api";
import { VALUE_TYPES, changesOf, patchOf, typeOf, textOf, valuesOf } from "./config-edit";
import { emptyEntryRow, environmentFormSchema, type EntryRow, type EnvironmentForm } from "./config-form";
import { ChangeList } from "./change-list";
import { SaveActions } from "./save-actions";
import { usePreviewedSave } from "./use-previewed-save";
import { EditorActions } from "./editor-actions";
import { TargetPicker } from "./target-picker";
import { ValueInput } from "./value-input";
import styles from "../gitops.module.css";

export interface EnvironmentEditorProps {
  /** What the editor starts from: the persistent values, or the live ones (to persist a drift). */
  seed: ConfigView;
  name: string;
  environment: string;
  file: string;
  canOperate: boolean;
  /** Operators and the component's owners commit persistent values; others open a merge request. */
  canCommit: boolean;
  persistent: ConfigValues;
  current: ConfigValues;
  onCancel: () => void;
  onSaved: (r: ConfigWriteResult) => void;
}

const rowsOf = (values: ConfigValues): EntryRow[] => Object.entries(values).map(([key, value]) => ({ key, type: typeOf(value), text: textOf(value) }));

export function EnvironmentEditor(props: EnvironmentEditorProps) {
  const [target, setTarget] = useState<ConfigView>("persistent");
  const base = target === "current" ? props.current : props.persistent;
  const form = useForm<EnvironmentForm, unknown, ConfigValues>({
    resolver: zodResolver(environmentFormSchema),
    defaultValues: { entries: rowsOf(props.seed === "current" ? props.current : props.persistent) },
  });
  const entries = useFieldArray({ control: form.control, name: "entries" });
  const { preview, setPreview, save } = usePreviewedSave<EnvironmentForm, ConfigValues, ConfigValues, Parameters<typeof saveConfig>[1]>(form, (body) => saveConfig(props.name, body), props.onSaved);

  const rows = useWatch({ control: form.control, name: "entries" });
  const issues = errorMessages(form.formState.errors);
  const changes = changesOf(base, patchOf(base, valuesOf(rows.map((r, i) => ({ ...r, id: String(i) }))).values));
  const patch = preview ? patchOf(base, preview) : null;
  const previewChanges = patch ? changesOf(base, patch) : [];
  const error = (i: number, field: "key" | "text") => Boolean(form.formState.errors.entries?.[i]?.[field]);

  const verb = !props.canCommit ? "Open merge request" : target === "current" ? "Apply live" : "Commit";
  return (
    <Card title={`Edit ${props.environment}`}>
      <form className="stack" onSubmit={form.handleSubmit(setPreview)} noValidate>
        {props.canOperate ? (
          <TargetPicker
            target={target}
            onChange={(t) => {
              setTarget(t);
              form.reset({ entries: rowsOf(t === "current" ? props.current : props.persistent) });
            }}
          />
        ) : props.canCommit ? (
          <Alert tone="info" data-testid="commit-note">
            You own this component: saving commits to <code>{props.file}</code> in the config repository.
          </Alert>
        ) : (
          <Alert tone="info" data-testid="merge-request-note">
            Saving will open a merge request in the config repository (<code>{props.file}</code>). The values change when it is merged.
          </Alert>
        )}
        {entries.fields.length === 0 ? <p className="muted">No keys yet.</p> : null}
        {entries.fields.map((entry, i) => (
          <div key={entry.id} className={styles.editorRow}>
            <Input aria-label={`Key ${i + 1}`} placeholder="KEY" className={error(i, "key") ? styles.invalid : undefined} aria-invalid={error(i, "key") || undefined} {...form.register(`entries.${i}.key`)} />
            <Select
              aria-label={`Type ${i + 1}`}
              {...form.register(`entries.${i}.type`, {
                // A value turned into true/false starts as false, unless it reads "true".
                onChange: (e) => {
                  if (e.target.value === "boolean" && form.getValues(`entries.${i}.text`) !== "true") form.setValue(`entries.${i}.text`, "false");
                },
              })}
            >
              {VALUE_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </Select>
            <ValueInput type={rows[i]?.type ?? entry.type} label={`Value ${i + 1}`} invalid={error(i, "text")} field={form.register(`entries.${i}.text`)} />
            <Button size="small" variant="ghost" aria-label={`Remove ${rows[i]?.key || `key ${i + 1}`}`} onClick={() => entries.remove(i)}>
              ✕
            </Button>
          </div>
        ))}
        <EditorActions
          testIds={{ add: "add-key", issues: "config-issues", preview: "preview-config" }}
          previewLabel="Preview change"
          issues={issues}
          hasChanges={changes.length > 0}
          onAdd={() => entries.append(emptyEntryRow(), { shouldFocus: false })}
          onCancel={props.onCancel}
        />
        {patch && issues.length === 0 && previewChanges.length > 0 ? (
          <div className="stack" data-testid="config-preview-panel">
            <h3 className={styles.flush}>
              The change to {target === "current" ? `the live values of ${props.environment}` : <code>{props.file}</code>}
            </h3>
            <ChangeList changes={previewChanges} testId="config-preview" />
            <p className={`muted ${styles.flush}`}>
              {!props.canCommit
                ? "This will open a merge request; reviewers merge it into the config repository."
                : target === "current"
                  ? `This changes what runs in ${props.environment} now; it shows as drift until the persistent values match.`
                  : `This commits to the config repository's default branch; the next release to ${props.environment} makes it current.`}
            </p>
            <SaveActions
              label={verb}
              testId="save-config"
              pending={save.isPending}
              failure={save.isError ? { prefix: "Not saved", error: save.error } : null}
              onSave={() => save.mutate({ environment: props.environment, values: patch, view: target })}
              onBack={() => setPreview(null)}
            />
          </div>
        ) : null}
      </form>
    </Card>
  );
}
