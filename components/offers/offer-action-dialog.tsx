"use client";
// Support expires, revokes, extends or makes claimable one offer of a player, with a reason (and for an
// extension the new expiry). The player's history records it with cause support, the actor and the reason.
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { useSingleFlightMutation } from "@/components/forms/use-single-flight-mutation";
import { Field, FormDialog, Input, Textarea } from "@/components/ui";
import { SUPPORT_EXTEND_MAX_MS, SUPPORT_EXTEND_RULE_IN_WORDS, SUPPORT_REASON_MAX, SupportReason, type SupportOfferAction } from "@/lib/offers-client/schemas";
import { describeOffersError, useOffersApi, type AdminOffer, type OfferActionResult } from "./api";
import { ACTION_LABELS } from "./offer-actions";

/** The form: the reason, and for an extension the new expiry as the browser's date-time field gives it (local time). */
const ActionForm = z.object({ reason: SupportReason, expiresAt: z.string() });
type Form = z.input<typeof ActionForm>;

const EXPLAIN: Record<SupportOfferAction, string> = {
  expire: "The offer ends now, as if its time had run out; a queued offer takes its slot.",
  revoke: "The offer ends now, even if its rewards are claimable: the player can no longer claim them.",
  extend: "The offer stays open until the new expiry.",
  "make-claimable": "The offer's conditions count as met: the player can claim its rewards now.",
};

/** A date-time field's value (local time, minutes) for an instant. */
function localInput(at: Date): string {
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A day after the later of the offer's expiry and now: a sensible first proposal. */
function proposedExpiry(offer: AdminOffer): string {
  const base = Math.max(Date.parse(offer.expiresAt), Date.now());
  return localInput(new Date(base + 24 * 3600 * 1000));
}

/** Why the new expiry cannot be sent, or null: the service's own bounds, checked where it is typed. */
function expiryProblem(value: string, offer: AdminOffer): string | null {
  const at = Date.parse(value);
  if (!value || Number.isNaN(at)) return "Pick the new expiry.";
  if (at <= Date.parse(offer.expiresAt) || at > Date.now() + SUPPORT_EXTEND_MAX_MS) return `The new expiry must be ${SUPPORT_EXTEND_RULE_IN_WORDS}.`;
  return null;
}

export function OfferActionDialog({
  gameId,
  playerId,
  target,
  onClose,
  onDone,
}: {
  gameId: string;
  playerId: string;
  /** The offer and the action to take; null: the dialog is closed. */
  target: { offer: AdminOffer; action: SupportOfferAction } | null;
  onClose: () => void;
  onDone: (result: OfferActionResult, action: SupportOfferAction) => void;
}) {
  const { api } = useOffersApi();
  const action = target?.action ?? "expire";
  const form = useForm<Form, unknown, z.output<typeof ActionForm>>({ resolver: zodResolver(ActionForm), mode: "onTouched", defaultValues: { reason: "", expiresAt: "" } });
  const act = useSingleFlightMutation({
    mutationFn: (body: z.output<typeof ActionForm>) =>
      api.actOnOffer(gameId, playerId, target!.offer.instanceId, action, action === "extend" ? { reason: body.reason, expiresAt: new Date(body.expiresAt).toISOString() } : { reason: body.reason }),
    onSuccess: (result) => onDone(result, action),
  });
  const { reset, setError } = form;
  const resetMutation = act.reset;
  useEffect(() => {
    if (!target) return;
    reset({ reason: "", expiresAt: target.action === "extend" ? proposedExpiry(target.offer) : "" });
    resetMutation();
  }, [target, reset, resetMutation]);

  const errors = form.formState.errors;
  const offer = target?.offer;
  return (
    <FormDialog
      open={target !== null}
      onClose={onClose}
      title={offer ? `${ACTION_LABELS[action]} ${offer.name}` : ""}
      submitLabel={ACTION_LABELS[action]}
      pendingLabel="Sending…"
      submitVariant={action === "expire" || action === "revoke" ? "danger" : "primary"}
      pending={act.isPending}
      submitTestId="offer-action-submit"
      error={act.isError ? describeOffersError(act.error) : null}
      onSubmit={form.handleSubmit((body) => {
        if (action === "extend" && offer) {
          const problem = expiryProblem(body.expiresAt, offer);
          if (problem) return setError("expiresAt", { message: problem });
        }
        return act.mutateAsync(body);
      })}
    >
      <p>
        {EXPLAIN[action]} It is recorded in the player&apos;s history with your name and the reason.
      </p>
      {action === "extend" ? (
        <Field label="New expiry" hint={`Your local time; ${SUPPORT_EXTEND_RULE_IN_WORDS}.`} error={errors.expiresAt?.message}>
          {(id) => <Input id={id} type="datetime-local" data-testid="offer-action-expires-at" {...form.register("expiresAt")} />}
        </Field>
      ) : null}
      <Field
        label="Reason"
        hint={`Required: it stays in the player's history and the audit log. At most ${SUPPORT_REASON_MAX} characters.`}
        error={errors.reason ? (errors.reason.type === "too_big" ? `A reason can be at most ${SUPPORT_REASON_MAX} characters.` : "A reason is required.") : undefined}
      >
        {(id) => <Textarea id={id} rows={3} data-testid="offer-action-reason" {...form.register("reason")} />}
      </Field>
    </FormDialog>
  );
}
