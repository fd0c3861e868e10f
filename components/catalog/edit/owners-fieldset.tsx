"use client";
import { useFieldArray } from "react-hook-form";
import { Button, FieldError, Input } from "@/components/ui";
import { issueAt } from "@/components/forms/error-messages";
import { useRecordDraft } from "./use-record-draft";
import styles from "../catalog.module.css";

/** The owners of the record: a user each, and a group when there is one. */
export function OwnersFieldset() {
  const { form, issues } = useRecordDraft();
  const owners = useFieldArray({ control: form.control, name: "spec.owners" });
  return (
    <fieldset className={`stack ${styles.fieldset}`}>
      <legend>Owners</legend>
      {owners.fields.map((owner, i) => (
        <div key={owner.id} className={styles.ownerRow}>
          <Input aria-label={`Owner ${i + 1} user`} placeholder="user" {...form.register(`spec.owners.${i}.user`)} />
          <Input aria-label={`Owner ${i + 1} group`} placeholder="group (optional)" {...form.register(`spec.owners.${i}.group`)} />
          <Button size="small" variant="ghost" onClick={() => owners.remove(i)} aria-label={`Remove owner ${i + 1}`}>
            ✕
          </Button>
        </div>
      ))}
      <FieldError>{issueAt(issues, "spec.owners")}</FieldError>
      <div>
        <Button size="small" onClick={() => owners.append({ user: "" }, { shouldFocus: false })}>
          Add owner
        </Button>
      </div>
    </fieldset>
  );
}
