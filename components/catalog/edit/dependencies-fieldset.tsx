"use client";
import { Checkbox } from "@/components/ui";
import { DEPENDENCY_FLAGS } from "@/lib/catalog/schema";
import { withDependency } from "./record-draft";
import { useRecordDraft } from "./use-record-draft";
import styles from "../catalog.module.css";

/** The services the component depends on. */
export function DependenciesFieldset() {
  const { spec, reshape } = useRecordDraft();
  return (
    <fieldset className={`row ${styles.fieldset}`}>
      <legend>Dependencies</legend>
      {DEPENDENCY_FLAGS.map((flag) => (
        <Checkbox key={flag} label={flag} checked={spec.dependencies?.[flag] === true} onChange={(e) => reshape((s) => withDependency(s, flag, e.target.checked))} />
      ))}
    </fieldset>
  );
}
