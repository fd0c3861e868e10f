"use client";
import { useEffect } from "react";
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { Field, FormDialog, Textarea } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { rejectBodySchema, type AppOrder } from "@/lib/portal/app-orders/model";
import { rejectOrder } from "./api";

type RejectForm = z.input<typeof rejectBodySchema>;

/** Rejects an order with a reason (required: the requester sees it); its merge request is closed. */
export function RejectOrderDialog({ order, onClose, onRejected }: { order: AppOrder | null; onClose: () => void; onRejected: (order: AppOrder) => void }) {
  const form = useForm<RejectForm, unknown, z.output<typeof rejectBodySchema>>({ resolver: zodResolver(rejectBodySchema), mode: "onTouched", defaultValues: { reason: "" } });
  const reject = useMutation({ mutationFn: ({ id, reason }: { id: string; reason: string }) => rejectOrder(id, reason), onSuccess: onRejected });
  // A new order to reject starts from an empty reason.
  const { reset } = form;
  const resetMutation = reject.reset;
  useEffect(() => {
    reset({ reason: "" });
    resetMutation();
  }, [order?.id, reset, resetMutation]);

  const reasonError = form.formState.errors.reason;
  return (
    <FormDialog
      open={order !== null}
      onClose={onClose}
      title={`Reject ${order?.name ?? ""}?`}
      submitLabel="Reject the order"
      pendingLabel="Rejecting…"
      submitVariant="danger"
      pending={reject.isPending}
      error={reject.isError ? describeApiError(reject.error) : null}
      onSubmit={form.handleSubmit(({ reason }) => order && reject.mutateAsync({ id: order.id, reason }))}
    >
      <p>The merge request is closed. {order?.requesterName} sees your reason with the order.</p>
      <Field label="Reason" hint="Required: tell the requester why." error={reasonError ? (reasonError.type === "too_small" ? "A reason is required." : reasonError.message) : undefined}>
        {(id) => <Textarea id={id} rows={3} {...form.register("reason")} />}
      </Field>
    </FormDialog>
  );
}
