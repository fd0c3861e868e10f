"use client";
// A list of rewards (kind, id, name, amount, image) as a field array: the offer's own, or a variant's.
import { useFieldArray } from "react-hook-form";
import { Button, Field, FieldError, Input, Select } from "@/components/ui";
import { emptyReward, REWARD_KIND_LABELS, REWARD_KINDS } from "./form-model";
import { useDraftForm } from "./form-context";
import styles from "../live-ops.module.css";

type RewardsPath = "rewards" | `variants.${number}.rewards`;

export function RewardRows({ name, owner }: { name: RewardsPath; owner: string }) {
  const { form, problem, invalid } = useDraftForm();
  const rewards = useFieldArray({ control: form.control, name });
  // Problems are keyed as errorEntries writes paths: variants[0].rewards[1].amount.
  const listPath = name.replaceAll(/\.(\d+)\./g, "[$1].");
  const at = (i: number, part: string) => `${listPath}[${i}].${part}`;
  return (
    <div className="stack">
      {rewards.fields.map((reward, i) => {
        const label = `${owner}reward ${i + 1}`;
        const hidden = <span className="visually-hidden">{label[0]!.toUpperCase() + label.slice(1)} </span>;
        return (
          <div key={reward.id} className={styles.itemRow} role="group" aria-label={label[0]!.toUpperCase() + label.slice(1)} data-testid="reward-row">
            <div className={styles.itemHead}>
              <span>Reward {i + 1}</span>
              <Button size="small" variant="ghost" onClick={() => rewards.remove(i)} aria-label={`Remove ${label}`}>
                Remove
              </Button>
            </div>
            <Field label={<>{hidden}Kind</>} error={problem(at(i, "kind"))}>
              {(id) => (
                <Select id={id} {...form.register(`${name}.${i}.kind`)}>
                  {REWARD_KINDS.map((kind) => (
                    <option key={kind} value={kind}>
                      {REWARD_KIND_LABELS[kind]}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label={<>{hidden}Id</>} error={problem(at(i, "rewardId"))}>
              {(id) => <Input id={id} autoComplete="off" placeholder="gold" {...invalid(at(i, "rewardId"))} {...form.register(`${name}.${i}.rewardId`)} />}
            </Field>
            <Field label={<>{hidden}Name</>} error={problem(at(i, "name"))}>
              {(id) => <Input id={id} placeholder="Gold" {...invalid(at(i, "name"))} {...form.register(`${name}.${i}.name`)} />}
            </Field>
            <Field label={<>{hidden}Amount</>} error={problem(at(i, "amount"))}>
              {(id) => <Input id={id} inputMode="decimal" autoComplete="off" {...invalid(at(i, "amount"))} {...form.register(`${name}.${i}.amount`)} />}
            </Field>
            <Field label={<>{hidden}Image URL</>} hint="optional" error={problem(at(i, "image"))}>
              {(id) => <Input id={id} type="url" placeholder="https://…" {...invalid(at(i, "image"))} {...form.register(`${name}.${i}.image`)} />}
            </Field>
          </div>
        );
      })}
      {rewards.fields.length === 0 ? <FieldError>{problem(listPath)}</FieldError> : null}
      <div>
        <Button size="small" onClick={() => rewards.append(emptyReward(), { shouldFocus: true })}>
          Add reward
        </Button>
      </div>
    </div>
  );
}
