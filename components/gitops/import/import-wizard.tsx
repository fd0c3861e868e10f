"use client";
// The import wizard: what to read (the contents, kind inferred; or Backstage's catalog-info.yaml) → owner →
// repositories → review (inferred records with their kind editable; or Backstage's records with what did not map)
// → import (one commit for operators, one merge request for everyone else and for every Backstage import).
// The picks and kinds are one form (import-form.ts); the import is its submit, on the review step.
import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { importComponents, type ImportFormat, type ImportRequest } from "../api";
import { importFormSchema, type ImportForm } from "./import-form";
import { OwnerStep } from "./owner-step";
import { RepositoriesStep } from "./repositories-step";
import { ReviewStep } from "./review-step";
import { ImportStep } from "./import-step";
import { BackstageReview } from "./backstage-review";
import styles from "../gitops.module.css";

type Step = "owner" | "repositories" | "review" | "import";
const FORMATS: Array<{ id: ImportFormat; label: string }> = [
  { id: "inferred", label: "Infer from the contents" },
  { id: "backstage", label: "Backstage catalog-info.yaml" },
];
const STEPS: Array<{ id: Step; label: string }> = [
  { id: "owner", label: "1. Owner" },
  { id: "repositories", label: "2. Repositories" },
  { id: "review", label: "3. Review" },
  { id: "import", label: "4. Import" },
];

export function ImportWizard({ canOperate }: { canOperate: boolean }) {
  const [step, setStep] = useState<Step>("owner");
  const [owner, setOwner] = useState<string | null>(null);
  const [format, setFormat] = useState<ImportFormat>("inferred");
  const form = useForm<ImportForm, unknown, Array<string | ImportRequest>>({ resolver: zodResolver(importFormSchema), defaultValues: { repositories: [] } });
  const queryClient = useQueryClient();
  // Started by the review step's submit (not by an effect: an import must never run twice).
  const run = useMutation({
    mutationFn: ({ requests, format }: { requests: Array<string | ImportRequest>; format: ImportFormat }) => importComponents(requests, false, format),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["import"] });
      await queryClient.invalidateQueries({ queryKey: ["catalog"] });
    },
  });
  const start = form.handleSubmit((requests) => {
    run.mutate({ requests, format });
    setStep("import");
  });

  return (
    <FormProvider {...form}>
      <div className="stack" data-testid="import-wizard">
        <ol className={styles.steps} aria-label="Steps">
          {STEPS.map((s) => (
            <li key={s.id} aria-current={s.id === step ? "step" : undefined}>
              {s.label}
            </li>
          ))}
        </ol>
        <div className={styles.switcher} role="group" aria-label="What to read">
          {FORMATS.map((f) => (
            <button
              key={f.id}
              type="button"
              className={styles.pill}
              aria-pressed={f.id === format}
              disabled={step === "import"}
              data-testid={`format-${f.id}`}
              onClick={() => {
                if (f.id === format) return;
                setFormat(f.id);
                if (step === "review") setStep("repositories");
              }}
            >
              {f.label}
            </button>
          ))}
        </div>
        <p className={`muted ${styles.flush}`} data-testid="import-mode">
          {format === "backstage"
            ? "Each repository's catalog-info.yaml is read (with the files its Locations name): a record per Component, and what did not map is listed before one merge request is opened, for everyone."
            : canOperate
              ? "As an operator, the imported records are committed to the config repository and show in the catalog at once."
              : "The imported records are proposed as one merge request in the config repository; they show in the catalog once it is merged."}
        </p>
        {step === "owner" ? (
          <OwnerStep
            owner={owner}
            onPick={(o) => {
              if (o !== owner) form.reset({ repositories: [] });
              setOwner(o);
              setStep("repositories");
            }}
          />
        ) : null}
        {step === "repositories" && owner ? (
          <RepositoriesStep
            owner={owner}
            onBack={() => setStep("owner")}
            onNext={async () => {
              if (await form.trigger("repositories")) setStep("review");
            }}
          />
        ) : null}
        {step === "review" ? (
          format === "backstage" ? <BackstageReview onBack={() => setStep("repositories")} onImport={start} /> : <ReviewStep onBack={() => setStep("repositories")} onImport={start} />
        ) : null}
        {step === "import" ? (
          <ImportStep
            repositories={form.getValues("repositories").map((r) => r.path)}
            running={run.isPending}
            answer={run.data}
            error={run.isError ? run.error : null}
            onRetry={() => run.variables && run.mutate(run.variables)}
            onRestart={() => {
              run.reset();
              form.reset({ repositories: [] });
              setStep("owner");
            }}
          />
        ) : null}
      </div>
    </FormProvider>
  );
}
