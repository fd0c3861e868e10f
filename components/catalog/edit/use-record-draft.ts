"use client";
import { useFormContext, useWatch } from "react-hook-form";
import type { Component } from "@/lib/catalog/schema";
import { errorEntries } from "@/components/forms/error-messages";

/** What a part of the record editor needs: the form, the spec as it stands, its issues, and a way to reshape the spec. */
export function useRecordDraft() {
  const form = useFormContext<Component>();
  const spec = useWatch({ control: form.control, name: "spec" });
  const reshape = (edit: (spec: Component["spec"]) => Component["spec"]) => form.setValue("spec", edit(form.getValues("spec")), { shouldDirty: true });
  return { form, spec, reshape, issues: errorEntries(form.formState.errors) };
}
