"use client";
// Backstage's optional fields of a record: description, tags, lifecycle and links.
import { useState } from "react";
import { Controller, useFieldArray } from "react-hook-form";
import { Button, Field, FieldError, Input, Select, Textarea } from "@/components/ui";
import { issueAt } from "@/components/forms/error-messages";
import { LIFECYCLES } from "@/lib/catalog/schema";
import { useRecordDraft } from "./use-record-draft";
import styles from "../catalog.module.css";

/** Tags typed as one line ("payments, tier-1"): the record gets the list, the input keeps what was typed. */
function TagsInput({ id, value, onChange, invalid }: { id: string; value: string[] | undefined; onChange: (tags: string[]) => void; invalid: boolean }) {
  const [text, setText] = useState((value ?? []).join(", "));
  return (
    <Input
      id={id}
      data-testid="field-tags"
      value={text}
      aria-invalid={invalid || undefined}
      placeholder="payments, tier-1"
      onChange={(e) => {
        setText(e.target.value);
        onChange(
          e.target.value
            .split(/[,\s]+/)
            .map((t) => t.trim())
            .filter(Boolean),
        );
      }}
    />
  );
}

export function AboutFieldset() {
  const { form, issues } = useRecordDraft();
  const links = useFieldArray({ control: form.control, name: "metadata.links" });
  const tagIssue = issueAt(issues, "metadata.tags");
  return (
    <fieldset className={`stack ${styles.fieldset}`}>
      <legend>About</legend>
      <Field label="Description" hint="Optional: what it does, in a sentence or two." error={issueAt(issues, "metadata.description")}>
        {(id) => <Textarea id={id} rows={2} data-testid="field-description" {...form.register("metadata.description")} />}
      </Field>
      <div className={styles.form}>
        <Field label="Tags" hint="Optional: lowercase words, separated by commas." error={tagIssue}>
          {(id) => <Controller control={form.control} name="metadata.tags" render={({ field }) => <TagsInput id={id} value={field.value} onChange={field.onChange} invalid={Boolean(tagIssue)} />} />}
        </Field>
        <Field label="Lifecycle" error={issueAt(issues, "spec.lifecycle")}>
          {(id) => (
            <Select id={id} data-testid="field-lifecycle" {...form.register("spec.lifecycle")}>
              <option value="">not set</option>
              {LIFECYCLES.map((l) => (
                <option key={l}>{l}</option>
              ))}
            </Select>
          )}
        </Field>
      </div>
      <div className="stack">
        <span>Links</span>
        {links.fields.map((link, i) => (
          <div key={link.id} className={styles.ownerRow}>
            <Input aria-label={`Link ${i + 1} title`} placeholder="title" {...form.register(`metadata.links.${i}.title`)} />
            <Input aria-label={`Link ${i + 1} address`} placeholder="https://…" {...form.register(`metadata.links.${i}.url`)} />
            <Button size="small" variant="ghost" onClick={() => links.remove(i)} aria-label={`Remove link ${i + 1}`}>
              ✕
            </Button>
            <FieldError>{issueAt(issues, `metadata.links[${i}].url`) ?? issueAt(issues, `metadata.links[${i}].title`)}</FieldError>
          </div>
        ))}
        <FieldError>{issueAt(issues, "metadata.links")}</FieldError>
        <div>
          <Button size="small" onClick={() => links.append({ title: "", url: "" }, { shouldFocus: true })}>
            Add link
          </Button>
        </div>
      </div>
    </fieldset>
  );
}
