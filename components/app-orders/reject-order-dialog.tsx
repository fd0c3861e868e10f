"use client";
import { useEffect } from "react";
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { Alert, Button, Dialog, Field, Textarea } from "@/components/ui";
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
    <Dialog
      open={order !== null}
      onClose={onClose}
      title={`Reject ${order?.name ?? ""}?`}
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" disabled={reject.isPending} onClick={form.handleSubmit(({ reason }) => order && reject.mutate({ id: order.id, reason }))}>
            {reject.isPending ? "Rejecting…" : "Reject the order"}
          </Button>
        </>
      }
    >
      <p>The merge request is closed. {order?.requesterName} sees your reason with the order.</p>
      <Field label="Reason" hint="Required: tell the requester why." error={reasonError ? (reasonError.type === "too_small" ? "A reason is required." : reasonError.message) : undefined}>
        {(id) => <Textarea id={id} rows={3} {...form.register("reason")} />}
      </Field>
      {reject.isError ? <Alert tone="error">{describeApiError(reject.error)}</Alert> : null}
    </Dialog>
  );
}
