"use client";
import { useEffect } from "react";
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { Field, FormDialog, Textarea } from "@/components/ui";
import { ApiError, describeApiError } from "@/components/http/api-client";
import { closeReviewBodySchema } from "@/lib/portal/gitops/review-shapes";
import { closeReview, type Review } from "./api";

type CloseForm = z.input<typeof closeReviewBodySchema>;

/** Closes a merge request with a reason (required: the author reads it on the request's page). */
/** `onChangedElsewhere`: the server refused because the request was decided or moved since the page loaded (the page says so). */
export function CloseReviewDialog({
  review,
  open,
  onClose,
  onClosed,
  onChangedElsewhere,
}: {
  review: Review;
  open: boolean;
  onClose: () => void;
  onClosed: (review: Review) => void;
  onChangedElsewhere?: (error: ApiError) => void;
}) {
  const form = useForm<CloseForm, unknown, z.output<typeof closeReviewBodySchema>>({ resolver: zodResolver(closeReviewBodySchema), mode: "onTouched", defaultValues: { reason: "" } });
  const close = useMutation({
    mutationFn: (reason: string) => closeReview(review.iid, reason),
    onSuccess: onClosed,
    onError: (error) => {
      if (onChangedElsewhere && error instanceof ApiError && error.code === "merge-request-decided") onChangedElsewhere(error);
    },
  });
  const { reset } = form;
  const resetMutation = close.reset;
  useEffect(() => {
    if (open) {
      reset({ reason: "" });
      resetMutation();
    }
  }, [open, reset, resetMutation]);
  const reasonError = form.formState.errors.reason;
  const own = review.can.close && !review.can.merge;
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={`Close !${review.iid}?`}
      submitLabel="Close the merge request"
      pendingLabel="Closing…"
      submitVariant="danger"
      pending={close.isPending}
      error={close.isError ? describeApiError(close.error) : null}
      onSubmit={form.handleSubmit(({ reason }) => close.mutateAsync(reason))}
    >
      <p>{own ? "Your proposal is withdrawn; nothing is merged." : `Nothing is merged. ${review.author} sees your reason on the request's page.`}</p>
      <Field label="Reason" hint="Required: say why." error={reasonError?.message}>
        {(id) => <Textarea id={id} rows={3} aria-invalid={reasonError ? true : undefined} {...form.register("reason")} />}
      </Field>
    </FormDialog>
  );
}
