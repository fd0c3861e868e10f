"use client";
// The record's relations: its system, the components it depends on, the APIs it provides and consumes.
// A name no record has is accepted here as in the file (the catalog shows it as a warning).
import { useState } from "react";
import { Controller, useFieldArray } from "react-hook-form";
import { Button, Field, FieldError, Input, Select } from "@/components/ui";
import { issueAt } from "@/components/forms/error-messages";
import { API_TYPES } from "@/lib/catalog/schema";
import { useRecordDraft } from "./use-record-draft";
import styles from "../catalog.module.css";

/** Names typed as one line ("payments-gateway, inventory"): the record gets the list, the input keeps what was typed. */
function NamesInput({ id, testId, value, onChange, invalid, placeholder }: { id: string; testId: string; value: string[] | undefined; onChange: (names: string[]) => void; invalid: boolean; placeholder: string }) {
  const [text, setText] = useState((value ?? []).join(", "));
  return (
    <Input
      id={id}
      data-testid={testId}
      value={text}
      aria-invalid={invalid || undefined}
      placeholder={placeholder}
      onChange={(e) => {
        setText(e.target.value);
        onChange(
          e.target.value
            .split(/[,\s]+/)
            .map((n) => n.trim())
            .filter(Boolean),
        );
      }}
    />
  );
}

export function RelationsFieldset() {
  const { form, issues } = useRecordDraft();
  const provided = useFieldArray({ control: form.control, name: "spec.providesApis" });
  const dependsOnIssue = issueAt(issues, "spec.dependsOn");
  const consumesIssue = issueAt(issues, "spec.consumesApis");
  return (
    <fieldset className="stack" style={{ border: "none", padding: 0, margin: 0 }}>
      <legend>Relations</legend>
      <div className={styles.form}>
        <Field label="System" hint="Optional: the group of components it belongs to, e.g. commerce." error={issueAt(issues, "spec.system")}>
          {(id) => <Input id={id} data-testid="field-system" {...form.register("spec.system")} />}
        </Field>
        <Field label="Depends on" hint="Optional: component names, separated by commas." error={dependsOnIssue}>
          {(id) => (
            <Controller
              control={form.control}
              name="spec.dependsOn"
              render={({ field }) => <NamesInput id={id} testId="field-dependsOn" value={field.value} onChange={field.onChange} invalid={Boolean(dependsOnIssue)} placeholder="payments-gateway, inventory" />}
            />
          )}
        </Field>
        <Field label="Consumes APIs" hint="Optional: API names, separated by commas." error={consumesIssue}>
          {(id) => (
            <Controller
              control={form.control}
              name="spec.consumesApis"
              render={({ field }) => <NamesInput id={id} testId="field-consumesApis" value={field.value} onChange={field.onChange} invalid={Boolean(consumesIssue)} placeholder="payments" />}
            />
          )}
        </Field>
      </div>
      <div className="stack">
        <span>Provides APIs</span>
        {provided.fields.map((api, i) => (
          <div key={api.id} className={styles.ownerRow}>
            <Input aria-label={`API ${i + 1} name`} placeholder="name" {...form.register(`spec.providesApis.${i}.name`)} />
            <Select aria-label={`API ${i + 1} type`} {...form.register(`spec.providesApis.${i}.type`)}>
              {API_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </Select>
            <Input aria-label={`API ${i + 1} definition path`} placeholder="api/openapi.yaml" {...form.register(`spec.providesApis.${i}.path`)} />
            <Button size="small" variant="ghost" onClick={() => provided.remove(i)} aria-label={`Remove API ${i + 1}`}>
              ✕
            </Button>
            <FieldError>{issueAt(issues, `spec.providesApis[${i}]`)}</FieldError>
          </div>
        ))}
        <FieldError>{issueAt(issues, "spec.providesApis")}</FieldError>
        <div>
          <Button size="small" onClick={() => provided.append({ name: "", type: "openapi", path: "" }, { shouldFocus: true })}>
            Add API
          </Button>
        </div>
      </div>
    </fieldset>
  );
}
