"use client";
// Promote to production: a staging version (the latest by default), never the one production runs.
import { useMemo } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { Field, FormDialog, Select } from "@/components/ui";
import type { ReleaseRequest } from "../api";

function promoteSchema(versions: string[], inProduction: string | null) {
  return z
    .object({
      version: z
        .string()
        .refine((v) => versions.includes(v), "Pick a version that was released to staging.")
        .refine((v) => v !== inProduction, "Production already runs this version: pick a newer one."),
    })
    .transform(({ version }): ReleaseRequest => ({ environment: "production", sourceRef: version }));
}

export function PromoteDialog({ name, versions, inProduction, onClose, onConfirm }: { name: string; versions: string[]; inProduction: string | null; onClose: () => void; onConfirm: (r: ReleaseRequest) => void }) {
  const schema = useMemo(() => promoteSchema(versions, inProduction), [versions, inProduction]);
  const form = useForm<{ version: string }, unknown, ReleaseRequest>({ resolver: zodResolver(schema), defaultValues: { version: versions[0] ?? "" } });
  const version = useWatch({ control: form.control, name: "version" });
  return (
    <FormDialog
      open
      onClose={onClose}
      title={`Promote ${name} to production`}
      submitLabel={`Promote ${version}`}
      submitDisabled={!version || version === inProduction}
      submitTestId="confirm-promote"
      onSubmit={form.handleSubmit(onConfirm)}
    >
      <Field label="Staging version" hint={inProduction ? `Production runs ${inProduction}.` : "Nothing is in production yet."} error={form.formState.errors.version?.message}>
        {(id) => (
          <Select id={id} data-testid="promote-version" {...form.register("version")}>
            {versions.map((v) => (
              <option key={v} value={v}>
                {v}
                {v === inProduction ? " (in production)" : ""}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <p>This deploys the commit of that staging release to production and makes the persistent production config current.</p>
    </FormDialog>
  );
}
