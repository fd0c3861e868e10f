"use client";
// What the definition form's fieldsets share: the form and its problems by path (as the catalog's editor
// does). A problem shows once its field has been edited or left, or after a first attempt to save, so a
// new form does not open covered in "enter a name".
import { useFormContext, type FieldErrors, type FieldPath, type UseFormReturn } from "react-hook-form";
import { errorEntries, issueAt, type FormIssue } from "@/components/forms/error-messages";
import type { DefinitionDraft } from "./form-model";

/** The form's problems a person should see now (errorEntries paths: rewards[0].amount). */
export function visibleIssues(form: UseFormReturn<DefinitionDraft>, errors: FieldErrors<DefinitionDraft>): FormIssue[] {
  // Read here so the form re-renders when they change (react-hook-form subscribes to what is read).
  const { isSubmitted, touchedFields: _touched, dirtyFields: _dirty } = form.formState;
  return errorEntries(errors).filter((issue) => {
    if (issue.path === "") return false;
    if (isSubmitted) return true;
    // The field, or the list or group it belongs to, has been edited or left.
    const parts = issue.path.replace(/\[(\d+)\]/g, ".$1").split(".");
    for (let n = parts.length; n > 0; n--) {
      const state = form.getFieldState(parts.slice(0, n).join(".") as FieldPath<DefinitionDraft>);
      if (state.isDirty || state.isTouched) return true;
    }
    return false;
  });
}

export function useDraftForm() {
  const form = useFormContext<DefinitionDraft>();
  const issues = visibleIssues(form, form.formState.errors);
  /** The problem at `path` (or under it), and the control's aria-invalid when there is one. */
  const problem = (path: string) => issueAt(issues, path);
  const invalid = (path: string) => (problem(path) ? { "aria-invalid": true as const } : {});
  return { form, issues, problem, invalid };
}
