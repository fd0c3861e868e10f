"use client";
// A second person approves (a note is optional) or rejects (a reason is required) a pending support grant.
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { useSingleFlightMutation } from "@/components/forms/use-single-flight-mutation";
import { Field, FormDialog, Textarea } from "@/components/ui";
import { SUPPORT_REASON_MAX } from "@/lib/offers-client/schemas";
import { describeOffersError, useOffersApi, type SupportGrant } from "./api";

export type Decision = "approve" | "reject";

export function DecideGrantDialog({ grant, decision, onClose, onDecided }: { grant: SupportGrant | null; decision: Decision; onClose: () => void; onDecided: (grant: SupportGrant) => void }) {
  const { api } = useOffersApi();
  const form = useForm<{ reason: string }>({ mode: "onTouched", defaultValues: { reason: "" } });
  const decide = useSingleFlightMutation({ mutationFn: ({ id, reason }: { id: string; reason: string }) => api.decide(grant?.gameId ?? "", id, decision, reason.trim() || undefined), onSuccess: onDecided });
  const { reset } = form;
  const resetMutation = decide.reset;
  useEffect(() => {
    reset({ reason: "" });
    resetMutation();
  }, [grant?.grantId, decision, reset, resetMutation]);

  const approve = decision === "approve";
  const reasonError = form.formState.errors.reason;
  return (
    <FormDialog
      open={grant !== null}
      onClose={onClose}
      title={approve ? "Approve this grant?" : "Reject this grant?"}
      submitLabel={approve ? "Approve and grant" : "Reject"}
      pendingLabel={approve ? "Granting…" : "Rejecting…"}
      submitVariant={approve ? "primary" : "danger"}
      submitTestId={`grant-${decision}-submit`}
      pending={decide.isPending}
      error={decide.isError ? describeOffersError(decide.error) : null}
      onSubmit={form.handleSubmit(({ reason }) => grant && decide.mutateAsync({ id: grant.grantId, reason }))}
    >
      {grant ? (
        <p>
          {grant.requestedBy} asks to grant <strong>{grant.amount.toLocaleString("en-US")} {grant.name}</strong> to {grant.playerId}: “{grant.reason}”.{" "}
          {approve ? "The game server receives it at once." : "Nothing is granted; the requester sees your reason."}
        </p>
      ) : null}
      <Field
        label={approve ? "Note (optional)" : "Reason"}
        hint={`At most ${SUPPORT_REASON_MAX} characters.`}
        error={reasonError ? (reasonError.type === "maxLength" ? `A reason can be at most ${SUPPORT_REASON_MAX} characters.` : "A reason is required.") : undefined}
      >
        {(id) => (
          <Textarea
            id={id}
            rows={3}
            data-testid="grant-decision-reason"
            {...form.register("reason", { maxLength: SUPPORT_REASON_MAX, validate: (value) => approve || value.trim().length > 0 })}
          />
        )}
      </Field>
    </FormDialog>
  );
}
