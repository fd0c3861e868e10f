"use client";
// Support offers one of the game's offer definitions to the player again (an explicit assignment), with a
// reason: it surfaces when the player has a free slot, else it waits in the queue.
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { useSingleFlightMutation } from "@/components/forms/use-single-flight-mutation";
import { Field, FormDialog, Input, Textarea } from "@/components/ui";
import { IDENTIFIER_RULE_IN_WORDS, SUPPORT_REASON_MAX, type Offer } from "@/lib/offers-client/schemas";
import { ReofferBody } from "@/lib/portal/support-shapes";
import { describeOffersError, useOffersApi } from "./api";

type Form = z.input<typeof ReofferBody>;
const EMPTY: Form = { offerId: "", reason: "" };

export function ReofferDialog({ gameId, playerId, open, onClose, onDone }: { gameId: string; playerId: string; open: boolean; onClose: () => void; onDone: (offer: Offer) => void }) {
  const { api } = useOffersApi();
  const form = useForm<Form, unknown, z.output<typeof ReofferBody>>({ resolver: zodResolver(ReofferBody), mode: "onTouched", defaultValues: EMPTY });
  const reoffer = useSingleFlightMutation({ mutationFn: (body: ReofferBody) => api.reoffer(gameId, playerId, body), onSuccess: onDone });
  const { reset } = form;
  const resetMutation = reoffer.reset;
  useEffect(() => {
    if (!open) return;
    reset(EMPTY);
    resetMutation();
  }, [open, reset, resetMutation]);

  const errors = form.formState.errors;
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={`Offer again to ${playerId}`}
      submitLabel="Offer"
      pendingLabel="Offering…"
      pending={reoffer.isPending}
      submitTestId="reoffer-submit"
      error={reoffer.isError ? describeOffersError(reoffer.error) : null}
      onSubmit={form.handleSubmit((body) => reoffer.mutateAsync(body))}
    >
      <p>The offer surfaces when the player has a free slot, otherwise it waits in the queue. Its history names you and the reason.</p>
      <Field label="Offer id" hint="The id of one of the game's offer definitions (as live ops shows it). The player must not have it open already." error={errors.offerId ? `An offer id is ${IDENTIFIER_RULE_IN_WORDS}.` : undefined}>
        {(id) => <Input id={id} autoComplete="off" data-testid="reoffer-offer-id" {...form.register("offerId")} />}
      </Field>
      <Field
        label="Reason"
        hint={`Required: it stays in the player's history and the audit log. At most ${SUPPORT_REASON_MAX} characters.`}
        error={errors.reason ? (errors.reason.type === "too_big" ? `A reason can be at most ${SUPPORT_REASON_MAX} characters.` : "A reason is required.") : undefined}
      >
        {(id) => <Textarea id={id} rows={3} data-testid="reoffer-reason" {...form.register("reason")} />}
      </Field>
    </FormDialog>
  );
}
