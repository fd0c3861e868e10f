"use client";
// Support sends the player's webhook deliveries again, all of them or one, with a reason. Each goes with its
// webhook-id, so a game server that de-duplicates on it grants nothing twice; a repeat within seconds sends
// nothing more.
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { useQuery } from "@tanstack/react-query";
import { useSingleFlightMutation } from "@/components/forms/use-single-flight-mutation";
import { Field, FormDialog, Select, Textarea } from "@/components/ui";
import { SUPPORT_REASON_MAX, SupportReason, type SupportResendResponse } from "@/lib/offers-client/schemas";
import { describeOffersError, useOffersApi } from "./api";
import { formatTime } from "./format";

/** The form: which delivery ("all" or its id, as the select gives it) and why. */
const ResendForm = z.object({ which: z.string(), reason: SupportReason });
type Form = z.input<typeof ResendForm>;
const EMPTY: Form = { which: "all", reason: "" };

export function ResendDeliveriesDialog({
  gameId,
  playerId,
  open,
  onClose,
  onDone,
}: {
  gameId: string;
  playerId: string;
  open: boolean;
  onClose: () => void;
  onDone: (result: SupportResendResponse) => void;
}) {
  const { api, keys } = useOffersApi();
  const deliveries = useQuery({ queryKey: keys.deliveries(gameId, playerId), queryFn: ({ signal }) => api.deliveries(gameId, playerId, signal), enabled: open });
  const form = useForm<Form, unknown, z.output<typeof ResendForm>>({ resolver: zodResolver(ResendForm), mode: "onTouched", defaultValues: EMPTY });
  const resend = useSingleFlightMutation({
    mutationFn: (body: z.output<typeof ResendForm>) => api.resend(gameId, playerId, { reason: body.reason, ...(body.which === "all" ? {} : { deliveryId: Number(body.which) }) }),
    onSuccess: onDone,
  });
  const { reset } = form;
  const resetMutation = resend.reset;
  useEffect(() => {
    if (!open) return;
    reset(EMPTY);
    resetMutation();
  }, [open, reset, resetMutation]);

  const list = deliveries.data?.deliveries ?? [];
  const errors = form.formState.errors;
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={`Re-send deliveries of ${playerId}`}
      submitLabel="Re-send"
      pendingLabel="Sending…"
      pending={resend.isPending}
      submitDisabled={deliveries.isSuccess && list.length === 0}
      submitTestId="resend-submit"
      error={resend.isError ? describeOffersError(resend.error) : deliveries.isError ? describeOffersError(deliveries.error) : null}
      onSubmit={form.handleSubmit((body) => resend.mutateAsync(body))}
    >
      <p>The game server receives each delivery again, with the same webhook-id, so it can tell a repeat from a new grant.</p>
      {deliveries.isSuccess && list.length === 0 ? <p className="muted">This player has no deliveries yet: there is nothing to send again.</p> : null}
      <Field label="Deliveries" hint={deliveries.isPending ? "Loading the player's deliveries…" : "All of them, or one (newest first)."}>
        {(id) => (
          <Select id={id} data-testid="resend-which" {...form.register("which")}>
            <option value="all">All of this player&apos;s deliveries ({list.length})</option>
            {list.map((d) => (
              <option key={d.deliveryId} value={String(d.deliveryId)}>
                #{d.deliveryId} · {d.eventType} · {d.status} · {formatTime(d.eventAt)}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field
        label="Reason"
        hint={`Required: it stays in the audit log. At most ${SUPPORT_REASON_MAX} characters.`}
        error={errors.reason ? (errors.reason.type === "too_big" ? `A reason can be at most ${SUPPORT_REASON_MAX} characters.` : "A reason is required.") : undefined}
      >
        {(id) => <Textarea id={id} rows={3} data-testid="resend-reason" {...form.register("reason")} />}
      </Field>
    </FormDialog>
  );
}
