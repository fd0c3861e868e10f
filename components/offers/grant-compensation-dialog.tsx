"use client";
// Support grants a compensation reward to one player: a reward of the game, an amount and a reason.
// Below the game's thresholds it is granted at once; above them it waits for a second person.
import { useEffect, useRef } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { useSingleFlightMutation } from "@/components/forms/use-single-flight-mutation";
import { Field, FormDialog, Input, Select, Textarea } from "@/components/ui";
import { MAX_SUPPORT_GRANT_AMOUNT, RewardKind, SUPPORT_REASON_MAX } from "@/lib/offers-client/schemas";
import { CompensationBody } from "@/lib/portal/support-shapes";
import { describeOffersError, useOffersApi, type SupportGrant } from "./api";

type Form = z.input<typeof CompensationBody>;

const KIND_LABELS: Record<RewardKind, string> = {
  coins: "Coins (in-game currency)",
  loyalty_currency: "Loyalty or premium currency",
  item: "Item",
  exp: "Experience points",
  trust_points: "Trust points",
};

/** A random key (crypto.randomUUID needs a secure context; the portal may be served over plain http inside a network). */
const newKey = () => (globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`);

const EMPTY: Form = { kind: "coins", rewardId: "", amount: 1, reason: "" };

export function GrantCompensationDialog({ gameId, playerId, open, onClose, onGranted }: { gameId: string; playerId: string; open: boolean; onClose: () => void; onGranted: (grant: SupportGrant) => void }) {
  const { api } = useOffersApi();
  // One Idempotency-Key per opened dialog: a submit repeated after a lost answer answers the first grant.
  const key = useRef("");
  const form = useForm<Form, unknown, z.output<typeof CompensationBody>>({ resolver: zodResolver(CompensationBody), mode: "onTouched", defaultValues: EMPTY });
  const grant = useSingleFlightMutation({ mutationFn: (body: CompensationBody) => api.grant(gameId, playerId, body, key.current), onSuccess: onGranted });
  const { reset } = form;
  const resetMutation = grant.reset;
  useEffect(() => {
    if (!open) return;
    key.current = newKey();
    reset(EMPTY);
    resetMutation();
  }, [open, reset, resetMutation]);

  const errors = form.formState.errors;
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={`Grant compensation to ${playerId}`}
      submitLabel="Grant"
      pendingLabel="Granting…"
      pending={grant.isPending}
      submitTestId="grant-submit"
      error={grant.isError ? describeOffersError(grant.error) : null}
      onSubmit={form.handleSubmit((body) => grant.mutateAsync(body))}
    >
      <p>The game server receives it by webhook, marked as a support grant with your name and the reason. Large grants wait for a second person to approve them.</p>
      <Field label="Reward kind" error={errors.kind?.message}>
        {(id) => (
          <Select id={id} {...form.register("kind")}>
            {RewardKind.options.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Reward id" hint="A currency id of the game (such as gold), or the reward id of one of its offers." error={errors.rewardId ? "A reward id is required: letters, digits and _ . @ + = | ~ -, up to 200 characters." : undefined}>
        {(id) => <Input id={id} autoComplete="off" data-testid="grant-reward-id" {...form.register("rewardId")} />}
      </Field>
      <Field label="Amount" hint={`A whole number from 1 to ${MAX_SUPPORT_GRANT_AMOUNT.toLocaleString("en-US")}.`} error={errors.amount ? `The amount is a whole number from 1 to ${MAX_SUPPORT_GRANT_AMOUNT.toLocaleString("en-US")}.` : undefined}>
        {(id) => <Input id={id} type="number" inputMode="numeric" min={1} max={MAX_SUPPORT_GRANT_AMOUNT} step={1} data-testid="grant-amount" {...form.register("amount", { valueAsNumber: true })} />}
      </Field>
      <Field
        label="Reason"
        hint={`Required: the approver and the game server read it. At most ${SUPPORT_REASON_MAX} characters.`}
        error={errors.reason ? (errors.reason.type === "too_big" ? `A reason can be at most ${SUPPORT_REASON_MAX} characters.` : "A reason is required.") : undefined}
      >
        {(id) => <Textarea id={id} rows={3} data-testid="grant-reason" {...form.register("reason")} />}
      </Field>
    </FormDialog>
  );
}
