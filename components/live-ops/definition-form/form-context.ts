"use client";
// What the definition form's fieldsets share: the form and its problems by path (as the catalog's editor does).
import { useFormContext } from "react-hook-form";
import { errorEntries, issueAt } from "@/components/forms/error-messages";
import type { DefinitionDraft } from "./form-model";

export function useDraftForm() {
  const form = useFormContext<DefinitionDraft>();
  const issues = errorEntries(form.formState.errors);
  /** The problem at `path` (or under it), and the control's aria-invalid when there is one. */
  const problem = (path: string) => issueAt(issues, path);
  const invalid = (path: string) => (problem(path) ? { "aria-invalid": true as const } : {});
  return { form, issues, problem, invalid };
}
