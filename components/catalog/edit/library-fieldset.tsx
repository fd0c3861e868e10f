"use client";
import { Checkbox, Field, Input, Select } from "@/components/ui";
import { issueAt } from "@/components/forms/error-messages";
import { LIBRARY_MODELS } from "@/lib/catalog/schema";
import { withLibrary, withPublishPolicy } from "./record-draft";
import { useRecordDraft } from "./use-record-draft";
import styles from "../catalog.module.css";

/** A library's settings: model, registry and, when it has one, its publish policy. */
export function LibraryFieldset() {
  const { form, spec, reshape, issues } = useRecordDraft();
  const library = spec.library;
  return (
    <fieldset className={`stack ${styles.fieldset}`}>
      <legend>Library</legend>
      <Checkbox label="This component is a library" checked={!!library} onChange={(e) => reshape((s) => withLibrary(s, e.target.checked))} />
      {library ? (
        <div className={styles.form}>
          <Field label="Model" error={issueAt(issues, "spec.library.model")}>
            {(id) => (
              <Select id={id} {...form.register("spec.library.model")}>
                {LIBRARY_MODELS.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Default registry" error={issueAt(issues, "spec.library.defaultRegistry")}>
            {(id) => <Input id={id} {...form.register("spec.library.defaultRegistry")} />}
          </Field>
          <Checkbox label="Publish policy" checked={!!library.publish} onChange={(e) => reshape((s) => withPublishPolicy(s, e.target.checked))} />
          {library.publish ? (
            <>
              <Field label="Publish strategy" error={issueAt(issues, "spec.library.publish.strategy")}>
                {(id) => <Input id={id} {...form.register("spec.library.publish.strategy")} />}
              </Field>
              <Field label="Default visibility" error={issueAt(issues, "spec.library.publish.visibilityPolicy.default")}>
                {(id) => <Input id={id} {...form.register("spec.library.publish.visibilityPolicy.default")} />}
              </Field>
              <Checkbox label="Public allowed" {...form.register("spec.library.publish.visibilityPolicy.allowPublic")} />
            </>
          ) : null}
        </div>
      ) : null}
    </fieldset>
  );
}
