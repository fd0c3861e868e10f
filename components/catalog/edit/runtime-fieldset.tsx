"use client";
import { Checkbox, Field, Input } from "@/components/ui";
import { issueAt } from "@/components/forms/error-messages";
import { MOBILE_PLATFORMS } from "@/lib/catalog/schema";
import { withKubernetes, withPlatform } from "./record-draft";
import { useRecordDraft } from "./use-record-draft";
import styles from "../catalog.module.css";

/** Where the component runs: Kubernetes (with its deployment contract) and mobile platforms. */
export function RuntimeFieldset() {
  const { form, spec, reshape, issues } = useRecordDraft();
  return (
    <fieldset className={`stack ${styles.fieldset}`}>
      <legend>Runtime</legend>
      <div className="row">
        <Checkbox label="Kubernetes" checked={!!spec.runtime?.k8s} onChange={(e) => reshape((s) => withKubernetes(s, e.target.checked))} />
        {MOBILE_PLATFORMS.map((platform) => (
          <Checkbox
            key={platform}
            label={`mobile: ${platform}`}
            checked={spec.runtime?.mobile?.platforms.includes(platform) ?? false}
            onChange={(e) => reshape((s) => withPlatform(s, platform, e.target.checked))}
          />
        ))}
      </div>
      {spec.runtime?.k8s ? (
        <Field label="Deployment contract path" error={issueAt(issues, "spec.runtime.k8s.deploymentContractPath")}>
          {(id) => <Input id={id} {...form.register("spec.runtime.k8s.deploymentContractPath")} />}
        </Field>
      ) : null}
    </fieldset>
  );
}
