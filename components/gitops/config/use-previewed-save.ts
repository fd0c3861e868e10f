"use client";
import { useState } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { useLiveValidation } from "@/components/forms/use-live-validation";
import { useSingleFlightMutation } from "@/components/forms/use-single-flight-mutation";
import type { ConfigWriteResult } from "../api";

/**
 * A config editor's preview and save, the form checked after every edit. Any edit takes the
 * preview (and a failed save's message) away: what is saved is always what was previewed.
 */
export function usePreviewedSave<T extends FieldValues, O, Preview, Body>(form: UseFormReturn<T, unknown, O>, send: (body: Body) => Promise<ConfigWriteResult>, onSaved: (r: ConfigWriteResult) => void) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const save = useSingleFlightMutation({ mutationFn: send, onSuccess: onSaved });
  useLiveValidation(form, () => {
    setPreview(null);
    save.reset();
  });
  return { preview, setPreview, save };
}
