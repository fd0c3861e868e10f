"use client";
import { useEffect, useRef } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";

/**
 * Checks the whole form after every edit, so every field's error stays current (react-hook-form's
 * own onChange mode re-checks only the field that changed; a rule across rows, such as a key named
 * twice, would leave a stale error on the other row). `onEdit` runs after each edit too.
 */
export function useLiveValidation<T extends FieldValues, C, O>(form: UseFormReturn<T, C, O>, onEdit?: () => void): void {
  const edited = useRef(onEdit);
  useEffect(() => {
    edited.current = onEdit;
  });
  const { watch, trigger } = form;
  useEffect(() => {
    const subscription = watch(() => {
      void trigger();
      edited.current?.();
    });
    return () => subscription.unsubscribe();
  }, [watch, trigger]);
}
