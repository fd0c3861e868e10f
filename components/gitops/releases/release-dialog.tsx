"use client";
// Release to staging: minor or major (the interface's release model has no patch; the dialog says so), from a source (the default branch when empty), with the
// version it will tag; confirmed here, run by the Releases tab.
import { useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { sentenceResolver } from "@/components/forms/sentences";
import { Field, FormDialog, Input, Select } from "@/components/ui";
import { nextVersion } from "@/lib/portal/gitops/semver";
import type { ReleaseRequest } from "../api";

// A staging release's body (POST /api/components/:name/releases checks the same).
const releaseSchema = z
  .object({
    releaseType: z.enum(["minor", "major"]),
    sourceRef: z.string().trim().max(200),
  })
  .transform(({ releaseType, sourceRef }): ReleaseRequest => ({ environment: "staging", releaseType, ...(sourceRef ? { sourceRef } : {}) }));

export function ReleaseDialog({ name, known, onClose, onConfirm }: { name: string; known: string[]; onClose: () => void; onConfirm: (r: ReleaseRequest) => void }) {
  const form = useForm<z.input<typeof releaseSchema>, unknown, ReleaseRequest>({ resolver: sentenceResolver(releaseSchema, { sourceRef: "The source" }), defaultValues: { releaseType: "minor", sourceRef: "" } });
  const version = nextVersion(known, useWatch({ control: form.control, name: "releaseType" }));
  return (
    <FormDialog open onClose={onClose} title={`Release ${name} to staging`} submitLabel={`Release ${version}`} submitTestId="confirm-release" onSubmit={form.handleSubmit(onConfirm)}>
      <Field label="Release type" hint="No patch releases: the release API cuts minor or major versions only, so a fix ships as the next minor.">
        {(id) => (
          <Select id={id} data-testid="release-type" {...form.register("releaseType")}>
            <option value="minor">minor (new features, compatible)</option>
            <option value="major">major (breaking changes)</option>
          </Select>
        )}
      </Field>
      <Field label="Source" hint="A branch, tag or commit; empty = the default branch." error={form.formState.errors.sourceRef?.message}>
        {(id) => <Input id={id} placeholder="default branch" {...form.register("sourceRef")} />}
      </Field>
      <p>
        This tags <strong data-testid="next-version">v{version}</strong> in the component&apos;s repository and makes the persistent staging config current. A newer tag already in the repository raises the version.
      </p>
    </FormDialog>
  );
}
