"use client";
import { Checkbox, Field, FieldError, Input } from "@/components/ui";
import { issueAt } from "@/components/forms/error-messages";
import { ENVIRONMENTS } from "@/lib/catalog/schema";
import { withEnvironment } from "./record-draft";
import { useRecordDraft } from "./use-record-draft";
import styles from "../catalog.module.css";

/** The environments of the record and, when it runs on Kubernetes, the namespace of each. */
export function EnvironmentsFieldset() {
  const { form, spec, reshape, issues } = useRecordDraft();
  return (
    <>
      <fieldset className={`row ${styles.fieldset}`}>
        <legend>Environments</legend>
        {ENVIRONMENTS.map((env) => (
          <Checkbox key={env} label={env} checked={spec.environments.includes(env)} onChange={(e) => reshape((s) => withEnvironment(s, env, e.target.checked))} />
        ))}
      </fieldset>
      <FieldError>{issueAt(issues, "spec.environments") ?? issueAt(issues, "spec.runtime")}</FieldError>
      {spec.runtime?.k8s ? (
        <div className={styles.form}>
          {spec.environments.map((env) => (
            <Field key={env} label={`Namespace (${env})`} error={issueAt(issues, `spec.runtime.k8s.namespaces.${env}`)}>
              {(id) => <Input id={id} {...form.register(`spec.runtime.k8s.namespaces.${env}`)} />}
            </Field>
          ))}
        </div>
      ) : null}
    </>
  );
}
