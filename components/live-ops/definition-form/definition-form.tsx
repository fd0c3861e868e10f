"use client";
// The create and edit form of an offer definition: checked as you type (./form-model), the audience
// counted live, the image previewed. Creating saves a draft. Editing an active definition first shows
// what changes, field by field, and asks to confirm; every edit is saved over the definition as it was
// loaded (its ETag as If-Match), and someone else's change in between is said, with a reload, while the
// form keeps what the person typed.
import { useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Card, Field, Input, Textarea } from "@/components/ui";
import { ApiError } from "@/components/http/api-client";
import { useLiveValidation } from "@/components/forms/use-live-validation";
import type { OfferDefinitionDraft } from "@/lib/offers-client/schemas";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";
import { describeLiveOpsError, isStale, useLiveOpsApi, type AdminDefinitionChange, type Definition } from "../api";
import type { Currency } from "../audience/audience-model";
import { contractIssues, draftFieldLabel, draftSchema, toDefinitionInput, type DefinitionDraft } from "./form-model";
import { definitionDiff } from "./definition-diff";
import { DiffTable } from "./diff-table";
import { AudienceFieldset, ConditionsFieldset, DeliveryFieldset, LimitsFieldset, ScheduleFieldset, VariantsFieldset } from "./fieldsets";
import { useDraftForm, visibleIssues } from "./form-context";
import { RewardRows } from "./reward-rows";
import styles from "../live-ops.module.css";

export interface DefinitionFormProps {
  gameId: string;
  currencies: Currency[];
  initial: DefinitionDraft;
  /** The stored definition when editing (its etag goes in If-Match); absent when creating. */
  existing?: Definition;
  /** Where to go once saved (the definition's page); default: there. */
  onSaved?: (change: AdminDefinitionChange) => void;
}

/** What a failed save says, and whether a reload is the way out. */
function failureOf(error: unknown): { message: string; reload: boolean } {
  if (isStale(error)) return { message: "Someone changed this offer since you opened it; reload to see their change. What you typed stays in the form until you reload.", reload: true };
  return { message: describeLiveOpsError(error), reload: false };
}

export function DefinitionForm({ gameId, currencies, initial, existing, onSaved }: DefinitionFormProps) {
  const creating = !existing;
  const router = useRouter();
  const queryClient = useQueryClient();
  const { api, keys } = useLiveOpsApi();
  const { href } = useOffersEnvironment();
  const form = useForm<DefinitionDraft>({ resolver: zodResolver(draftSchema(creating)), defaultValues: initial });
  const [review, setReview] = useState<OfferDefinitionDraft | null>(null);
  const reviewHeading = useRef<HTMLHeadingElement>(null);
  // The review replaces the form's buttons: focus moves to it.
  const reviewing = review !== null;
  useEffect(() => {
    if (reviewing) reviewHeading.current?.focus();
  }, [reviewing]);

  const save = useMutation({
    mutationFn: (input: OfferDefinitionDraft) =>
      existing ? api.update(gameId, existing.offerId, input, existing.etag) : api.create(gameId, { ...input, offerId: form.getValues("offerId") }),
    onSuccess: async (change) => {
      await queryClient.invalidateQueries({ queryKey: keys.game(gameId) });
      if (onSaved) onSaved(change);
      else router.push(href(`/live-ops/${encodeURIComponent(gameId)}/offers/${encodeURIComponent(change.definition.offerId)}`));
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === "definition-exists") form.setError("offerId", { message: "Another offer of this game already has this id; choose another." }, { shouldFocus: true });
    },
  });
  useLiveValidation(form, () => {
    setReview(null);
    if (save.isError) save.reset();
  });

  // The form's root error (the contract's safety net) is said on its own.
  const issues = visibleIssues(form, form.formState.errors);
  const valid = issues.length === 0;
  const failure = save.isError && !(save.error instanceof ApiError && save.error.code === "definition-exists") ? failureOf(save.error) : null;
  const live = existing?.status === "active";
  const diff = review && existing ? definitionDiff(existing, review) : [];

  const submit = form.handleSubmit((draft) => {
    const leftover = contractIssues(draft);
    if (leftover.length) {
      form.setError("root", { message: `The offers contract refuses this offer: ${leftover.join("; ")}` });
      return;
    }
    const input = toDefinitionInput(draft);
    if (live) setReview(input);
    else save.mutate(input);
  });

  return (
    <FormProvider {...form}>
      <form className={styles.form} onSubmit={submit} noValidate data-testid="definition-form" aria-label={creating ? "New offer" : `Edit ${existing.name}`}>
        <OfferFieldset creating={creating} />
        <fieldset className={styles.fieldset}>
          <legend>Rewards</legend>
          <OwnRewardsHint />
          <RewardRows name="rewards" owner="" />
        </fieldset>
        <VariantsFieldset />
        <ConditionsFieldset currencies={currencies} />
        <DeliveryFieldset />
        <AudienceFieldset gameId={gameId} currencies={currencies} />
        <ScheduleFieldset />
        <LimitsFieldset />

        {!valid ? (
          <Alert tone="error" data-testid="form-problems">
            <p className={styles.problemsLead}>{issues.length === 1 ? "1 problem to fix before saving:" : `${issues.length} problems to fix before saving:`}</p>
            <ul className={styles.problems}>
              {issues.map((i, n) => (
                <li key={`${n}:${String(i.path)}`}>
                  {draftFieldLabel(i.path)}: {i.message}
                </li>
              ))}
            </ul>
          </Alert>
        ) : null}
        {form.formState.errors.root?.message ? <Alert tone="error">{form.formState.errors.root.message}</Alert> : null}
        {failure && !review ? <SaveFailure failure={failure} /> : null}

        {review ? null : (
          <div className="row">
            {/* Enabled while there are problems: submitting then moves focus to the first field with one. */}
            <Button type="submit" variant="primary" disabled={save.isPending} data-testid="save-definition">
              {creating ? (save.isPending ? "Creating…" : "Create draft") : live ? "Review changes" : save.isPending ? "Saving…" : "Save changes"}
            </Button>
            <Button variant="ghost" onClick={() => router.back()}>
              Cancel
            </Button>
            {creating ? <span className="muted">It is saved as a draft; activate it from its page.</span> : null}
          </div>
        )}
      </form>

      {review && existing ? (
        <Card className="stack" data-testid="change-review">
          <h2 ref={reviewHeading} tabIndex={-1} className={styles.flush}>
            Changes to a live offer
          </h2>
          <p className={`muted ${styles.flush}`}>
            {existing.name} is active: new players who match get the changed offer; offers already given keep what they were given.
          </p>
          {diff.length ? <DiffTable rows={diff} /> : <p>Nothing changes.</p>}
          {failure ? <SaveFailure failure={failure} /> : null}
          <div className="row">
            <Button variant="primary" onClick={() => save.mutate(review)} disabled={save.isPending || diff.length === 0} data-testid="confirm-save">
              {save.isPending ? "Saving…" : "Save changes"}
            </Button>
            <Button variant="ghost" onClick={() => setReview(null)}>
              Back to editing
            </Button>
          </div>
        </Card>
      ) : null}
    </FormProvider>
  );
}

function SaveFailure({ failure }: { failure: { message: string; reload: boolean } }) {
  return (
    <Alert tone="error" data-testid="save-failure">
      {failure.message}{" "}
      {failure.reload ? (
        <Button size="small" onClick={() => window.location.reload()}>
          Reload
        </Button>
      ) : null}
    </Alert>
  );
}

function OfferFieldset({ creating }: { creating: boolean }) {
  const { form, problem, invalid } = useDraftForm();
  const image = useWatch({ control: form.control, name: "image" });
  const offerId = useWatch({ control: form.control, name: "offerId" });
  return (
    <fieldset className={styles.fieldset}>
      <legend>Offer</legend>
      <div className={styles.grid}>
        {creating ? (
          <Field label="Offer id" hint="letters, digits and _ . - ; it cannot change later" error={problem("offerId")}>
            {(id) => <Input id={id} autoComplete="off" placeholder="streak-bonus" data-testid="field-offerId" {...invalid("offerId")} {...form.register("offerId")} />}
          </Field>
        ) : (
          <Field label="Offer id">{(id) => <Input id={id} value={offerId} readOnly aria-readonly="true" />}</Field>
        )}
        <Field label="Name" error={problem("name")}>
          {(id) => <Input id={id} data-testid="field-name" {...invalid("name")} {...form.register("name")} />}
        </Field>
        <div className={styles.wide}>
          <Field label="Description" error={problem("description")}>
            {(id) => <Textarea id={id} rows={2} {...invalid("description")} {...form.register("description")} />}
          </Field>
        </div>
        <div className={styles.wide}>
          <Field label="Image URL" hint="optional; https:// or data:" error={problem("image")}>
            {(id) => (
              <span className={styles.preview}>
                <ImagePreview url={problem("image") ? "" : image.trim()} />
                <Input id={id} type="url" placeholder="https://…" {...invalid("image")} {...form.register("image")} />
              </span>
            )}
          </Field>
        </div>
      </div>
    </fieldset>
  );
}

/** The image as players will see it, or a placeholder; a URL that does not load says so. */
function ImagePreview({ url }: { url: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!url) return <span className={styles.previewImage} aria-hidden="true" />;
  if (failed === url)
    return (
      <span className={styles.previewImage} role="img" aria-label="The image cannot be loaded" title="The image cannot be loaded">
        ✕
      </span>
    );
  // eslint-disable-next-line @next/next/no-img-element -- the preview shows the game's own URL as players will load it
  return <img src={url} alt="Preview of the offer image" className={styles.previewImage} onError={() => setFailed(url)} data-testid="image-preview" />;
}

/** With variants on, the offer's own rewards may stay empty: the contract then takes the first variant's. */
function OwnRewardsHint() {
  const { form } = useDraftForm();
  const variantsOn = useWatch({ control: form.control, name: "variantsOn" });
  if (!variantsOn) return null;
  return (
    <p className="muted" data-testid="own-rewards-hint">
      These are optional with variants: leave them blank and the offer takes the first variant&apos;s rewards.
    </p>
  );
}
