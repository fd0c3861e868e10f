"use client";
// A game environment's four-eyes thresholds on the approvals page: when a support grant waits for a second
// person. Everyone there reads them in words; a lead edits them (rows of reward kind, optional reward id,
// and "above an amount" or "always"), checked as typed and saved as one list.
import { useState } from "react";
import { useFieldArray, useForm, useWatch } from "react-hook-form";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Field, FieldError, Input, Select } from "@/components/ui";
import { tooLongSentence } from "@/components/forms/sentences";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { IDENTIFIER_MAX_LENGTH, IDENTIFIER_RULE_IN_WORDS, isIdentifier, MAX_SUPPORT_GRANT_AMOUNT, type ApprovalRule, type SupportThresholds } from "@/lib/offers-client/schemas";
import { REWARD_KIND_WORDS, rewardKindLabel } from "@/lib/offers-client/reward-kinds-in-words";
import { describeOffersError, useOffersApi } from "./api";
import styles from "./offers.module.css";

const KINDS = Object.keys(REWARD_KIND_WORDS) as Array<ApprovalRule["kind"]>;
const MAX_RULES = 100;
const amount = (n: number) => n.toLocaleString("en-US");

/** One rule in words: "Coins (gold) above 1,000 wait for approval." */
export function ruleInWords(rule: ApprovalRule): string {
  const which = rule.rewardId ? ` (${rule.rewardId})` : "";
  return rule.approvalAbove === "always"
    ? `Every grant of ${REWARD_KIND_WORDS[rule.kind]}${which} waits for approval.`
    : `${rewardKindLabel(rule.kind)}${which} above ${amount(rule.approvalAbove)} wait for approval.`;
}

/** A rule as the form holds it: text as typed. */
interface RowDraft {
  kind: ApprovalRule["kind"];
  rewardId: string;
  mode: "above" | "always";
  above: string;
}

/** Why a row cannot be saved, as a sentence; null when it can. */
export function rowProblem(row: RowDraft): string | null {
  const id = row.rewardId.trim();
  // Said as the limit and the length, not the whole id rule, so a paste that is far too long is plain to see.
  if (id.length > IDENTIFIER_MAX_LENGTH) return tooLongSentence("A reward id", IDENTIFIER_MAX_LENGTH, id.length);
  if (id && !isIdentifier(id)) return `A reward id is ${IDENTIFIER_RULE_IN_WORDS}; leave it empty for every reward of the kind.`;
  if (row.mode === "always") return null;
  const n = Number(row.above.trim());
  if (!row.above.trim() || !Number.isInteger(n) || n < 0 || n > MAX_SUPPORT_GRANT_AMOUNT) return `Enter the amount as a whole number from 0 to ${amount(MAX_SUPPORT_GRANT_AMOUNT)}.`;
  return null;
}

const toRule = (row: RowDraft): ApprovalRule => ({
  kind: row.kind,
  ...(row.rewardId.trim() ? { rewardId: row.rewardId.trim() } : {}),
  approvalAbove: row.mode === "always" ? "always" : Number(row.above.trim()),
});
const toRow = (rule: ApprovalRule): RowDraft => ({ kind: rule.kind, rewardId: rule.rewardId ?? "", mode: rule.approvalAbove === "always" ? "always" : "above", above: rule.approvalAbove === "always" ? "" : String(rule.approvalAbove) });

export function SupportThresholdsCard({ gameId, canEdit }: { gameId: string; canEdit: boolean }) {
  const { api, keys } = useOffersApi();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const thresholds = useQuery({ queryKey: keys.thresholds(gameId), queryFn: ({ signal }) => api.thresholds(gameId, signal), ...retryWhileUnavailable });
  const rules = thresholds.data?.rules ?? [];
  return (
    <Card title="Approval thresholds" data-testid="support-thresholds">
      <div className="stack">
        {thresholds.isError ? <Alert tone="error">{describeOffersError(thresholds.error)}</Alert> : null}
        {thresholds.isPending ? <p className="muted">Loading the thresholds…</p> : null}
        {thresholds.isSuccess && !editing ? (
          rules.length === 0 ? (
            <p data-testid="thresholds-none">No thresholds: every support grant is granted at once.</p>
          ) : (
            <ul className={styles.thresholdList} data-testid="thresholds-list">
              {rules.map((rule, i) => (
                <li key={i}>{ruleInWords(rule)}</li>
              ))}
            </ul>
          )
        ) : null}
        {saved && !editing ? <Alert tone="success">Saved. Grants from now on follow these thresholds.</Alert> : null}
        {thresholds.isSuccess && editing ? (
          <ThresholdsForm
            gameId={gameId}
            initial={thresholds.data}
            onCancel={() => setEditing(false)}
            onSaved={(next) => {
              queryClient.setQueryData(keys.thresholds(gameId), next);
              setEditing(false);
              setSaved(true);
            }}
          />
        ) : null}
        {canEdit && thresholds.isSuccess && !editing ? (
          <div>
            <Button size="small" onClick={() => { setSaved(false); setEditing(true); }} data-testid="thresholds-edit">
              Change thresholds
            </Button>
          </div>
        ) : null}
        {!canEdit ? <p className="muted">A lead sets these.</p> : null}
      </div>
    </Card>
  );
}

function ThresholdsForm({ gameId, initial, onCancel, onSaved }: { gameId: string; initial: SupportThresholds; onCancel: () => void; onSaved: (next: SupportThresholds) => void }) {
  const { api } = useOffersApi();
  const form = useForm<{ rows: RowDraft[] }>({ defaultValues: { rows: initial.rules.map(toRow) } });
  const rows = useFieldArray({ control: form.control, name: "rows" });
  const save = useMutation({ mutationFn: (next: SupportThresholds) => api.setThresholds(gameId, next), onSuccess: onSaved });
  const watched = useWatch({ control: form.control, name: "rows" });
  const problems = watched.map(rowProblem);
  const submit = form.handleSubmit((values) => {
    if (values.rows.map(rowProblem).some(Boolean) || save.isPending) return;
    save.mutate({ rules: values.rows.map(toRule) });
  });
  return (
    <form className="stack" onSubmit={(e) => void submit(e)} noValidate>
      {rows.fields.length === 0 ? <p className="muted">No rule: every grant will be granted at once.</p> : null}
      {rows.fields.map((field, i) => (
        <fieldset key={field.id} className={styles.thresholdRow} aria-label={`Threshold ${i + 1}`}>
          <Field label="Reward kind">{(id) => <Select id={id} {...form.register(`rows.${i}.kind`)}>{KINDS.map((k) => <option key={k} value={k}>{rewardKindLabel(k)}</option>)}</Select>}</Field>
          <Field label="Reward id" hint="Optional: one currency or reward">{(id) => <Input id={id} autoComplete="off" {...form.register(`rows.${i}.rewardId`)} />}</Field>
          <Field label="Needs approval">
            {(id) => (
              <Select id={id} {...form.register(`rows.${i}.mode`)}>
                <option value="above">Above an amount</option>
                <option value="always">Always</option>
              </Select>
            )}
          </Field>
          {watched[i]?.mode === "above" ? <Field label="Amount">{(id) => <Input id={id} inputMode="numeric" autoComplete="off" {...form.register(`rows.${i}.above`)} />}</Field> : null}
          <div>
            <Button size="small" variant="ghost" onClick={() => rows.remove(i)} aria-label={`Remove threshold ${i + 1}`}>
              Remove
            </Button>
          </div>
          <FieldError>{problems[i]}</FieldError>
        </fieldset>
      ))}
      <div className="row">
        <Button size="small" onClick={() => rows.append({ kind: "coins", rewardId: "", mode: "above", above: "1000" })} disabled={rows.fields.length >= MAX_RULES}>
          Add threshold
        </Button>
        {rows.fields.length >= MAX_RULES ? <span className="muted">A game can have at most {MAX_RULES} thresholds.</span> : null}
      </div>
      {save.isError ? <Alert tone="error">{describeOffersError(save.error)}</Alert> : null}
      <div className="row">
        <Button type="submit" variant="primary" disabled={save.isPending || problems.some(Boolean)} data-testid="thresholds-save">
          {save.isPending ? "Saving…" : "Save thresholds"}
        </Button>
        <Button onClick={onCancel} disabled={save.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
