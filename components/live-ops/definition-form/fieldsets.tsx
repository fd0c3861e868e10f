"use client";
// The definition form's fieldsets below the offer itself: variants, completion conditions, delivery,
// audience with rollout, schedule (UTC) and limits.
import { useFieldArray, useController, useWatch } from "react-hook-form";
import { Button, Checkbox, Field, FieldError, Input, Select } from "@/components/ui";
import { IDENTIFIER_PATTERN } from "@/lib/offers-client/schemas";
import { AudienceSection } from "../audience/audience-section";
import type { Currency } from "../audience/audience-model";
import { DURATION_UNITS, emptyVariant, numberFault, type DurationUnit } from "./form-model";
import { useDraftForm } from "./form-context";
import { RewardRows } from "./reward-rows";
import styles from "../live-ops.module.css";

const UNIT_LABELS: Record<DurationUnit, string> = { seconds: "seconds", minutes: "minutes", hours: "hours", days: "days" };

function UnitSelect({ name, label }: { name: "durationUnit" | "cooldownUnit"; label: string }) {
  const { form } = useDraftForm();
  return (
    <Select aria-label={label} {...form.register(name)}>
      {(Object.keys(DURATION_UNITS) as DurationUnit[]).map((unit) => (
        <option key={unit} value={unit}>
          {UNIT_LABELS[unit]}
        </option>
      ))}
    </Select>
  );
}

export function VariantsFieldset() {
  const { form, problem, invalid } = useDraftForm();
  const variants = useFieldArray({ control: form.control, name: "variants" });
  const on = useWatch({ control: form.control, name: "variantsOn" });
  return (
    <fieldset className={styles.fieldset}>
      <legend>Variants</legend>
      <Checkbox
        label="Split players between 2–4 reward variants (each player gets one, always the same)"
        {...form.register("variantsOn", {
          onChange: (e: { target: { checked: boolean } }) => {
            if (e.target.checked && variants.fields.length < 2) variants.replace([emptyVariant(1), emptyVariant(2)]);
          },
        })}
      />
      {on ? (
        <>
          {variants.fields.map((variant, i) => (
            <div key={variant.id} className={styles.itemRow} role="group" aria-label={`Variant ${i + 1}`} data-testid="variant-row">
              <div className={styles.itemHead}>
                <span>Variant {i + 1}</span>
                <Button size="small" variant="ghost" onClick={() => variants.remove(i)} aria-label={`Remove variant ${i + 1}`} disabled={variants.fields.length <= 2}>
                  Remove
                </Button>
              </div>
              <Field label={<><span className="visually-hidden">Variant {i + 1} </span>Id</>} error={problem(`variants[${i}].variantId`)}>
                {(id) => <Input id={id} autoComplete="off" {...invalid(`variants[${i}].variantId`)} {...form.register(`variants.${i}.variantId`)} />}
              </Field>
              <Field label={<><span className="visually-hidden">Variant {i + 1} </span>Name</>} hint="optional" error={problem(`variants[${i}].name`)}>
                {(id) => <Input id={id} {...form.register(`variants.${i}.name`)} />}
              </Field>
              <Field label={<><span className="visually-hidden">Variant {i + 1} </span>Weight</>} hint="relative share of players" error={problem(`variants[${i}].weight`)}>
                {(id) => <Input id={id} inputMode="decimal" autoComplete="off" {...invalid(`variants[${i}].weight`)} {...form.register(`variants.${i}.weight`)} />}
              </Field>
              <div className={styles.wide}>
                <RewardRows name={`variants.${i}.rewards`} owner={`variant ${i + 1} `} />
              </div>
            </div>
          ))}
          <FieldError>{form.formState.errors.variants?.root?.message ?? form.formState.errors.variants?.message}</FieldError>
          <div>
            <Button size="small" onClick={() => variants.append(emptyVariant(variants.fields.length + 1))} disabled={variants.fields.length >= 4}>
              Add variant
            </Button>
          </div>
        </>
      ) : null}
    </fieldset>
  );
}

export function ConditionsFieldset({ currencies }: { currencies: Currency[] }) {
  const { form, problem, invalid } = useDraftForm();
  const conditions = useFieldArray({ control: form.control, name: "conditions" });
  const nameOf = (id: string) => currencies.find((c) => c.id === id)?.name ?? id;
  return (
    <fieldset className={styles.fieldset}>
      <legend>Completion conditions</legend>
      <p className={`muted ${styles.flush}`}>
        Without a condition the offer is claimable once the player has seen it. With one, the player spends a currency of the game first.
      </p>
      {conditions.fields.map((condition, i) => (
        <div key={condition.id} className={styles.itemRow} role="group" aria-label={`Completion condition ${i + 1}`}>
          <div className={styles.itemHead}>
            <span>Spend a currency</span>
            <Button size="small" variant="ghost" onClick={() => conditions.remove(i)} aria-label={`Remove completion condition ${i + 1}`}>
              Remove
            </Button>
          </div>
          <Field label={<><span className="visually-hidden">Completion condition {i + 1} </span>Currency</>} error={problem(`conditions[${i}].id`)}>
            {(id) => (
              <Select
                id={id}
                {...form.register(`conditions.${i}.id`, { onChange: (e: { target: { value: string } }) => form.setValue(`conditions.${i}.name`, nameOf(e.target.value), { shouldValidate: true }) })}
              >
                {currencies.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({c.id})
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label={<><span className="visually-hidden">Completion condition {i + 1} </span>Name shown</>} error={problem(`conditions[${i}].name`)}>
            {(id) => <Input id={id} {...invalid(`conditions[${i}].name`)} {...form.register(`conditions.${i}.name`)} />}
          </Field>
          <Field label={<><span className="visually-hidden">Completion condition {i + 1} </span>Amount to spend</>} error={problem(`conditions[${i}].amount`)}>
            {(id) => <Input id={id} inputMode="decimal" autoComplete="off" {...invalid(`conditions[${i}].amount`)} {...form.register(`conditions.${i}.amount`)} />}
          </Field>
        </div>
      ))}
      <div>
        <Button size="small" onClick={() => currencies[0] && conditions.append({ id: currencies[0].id, name: currencies[0].name, amount: "" })} disabled={currencies.length === 0}>
          Add completion condition
        </Button>
        {currencies.length === 0 ? <span className="muted"> The game declares no currency.</span> : null}
      </div>
    </fieldset>
  );
}

export function DeliveryFieldset() {
  const { form, problem, invalid } = useDraftForm();
  return (
    <fieldset className={styles.fieldset}>
      <legend>Delivery</legend>
      <Checkbox label="Real time: push it to the player's open event stream when it surfaces" {...form.register("realTime")} />
      <div className={styles.grid}>
        <Field label="Duration" hint="from surfacing until it expires" error={problem("durationAmount")}>
          {(id) => (
            <span className={styles.inline}>
              <Input id={id} inputMode="numeric" autoComplete="off" {...invalid("durationAmount")} {...form.register("durationAmount")} />
              <UnitSelect name="durationUnit" label="Duration unit" />
            </span>
          )}
        </Field>
        <Field label="Priority" hint="higher leaves the queue first" error={problem("priority")}>
          {(id) => <Input id={id} inputMode="numeric" autoComplete="off" {...invalid("priority")} {...form.register("priority")} />}
        </Field>
      </div>
    </fieldset>
  );
}

export function AudienceFieldset({ gameId, currencies }: { gameId: string; currencies: Currency[] }) {
  const { form, problem, invalid } = useDraftForm();
  const targeted = useWatch({ control: form.control, name: "targeted" });
  const [rollout, offerId] = useWatch({ control: form.control, name: ["rollout", "offerId"] });
  const audience = useController({ control: form.control, name: "audience" });
  const percent = Number(rollout);
  // The rollout draw depends on the offer id, so the count can honour it only once the id is usable.
  const inRollout = !numberFault(rollout, { min: 0, max: 100 }) && percent < 100 && IDENTIFIER_PATTERN.test(offerId) ? { percent, offerId } : null;
  return (
    <fieldset className={styles.fieldset}>
      <legend>Audience</legend>
      <Checkbox label="Surfaces by itself for players who match (else only when a game server assigns it)" {...form.register("targeted")} />
      {targeted ? (
        <>
          <AudienceSection gameId={gameId} currencies={currencies} value={audience.field.value} onChange={audience.field.onChange} rollout={inRollout} />
          <div className={styles.grid}>
            <Field label="Rollout (%)" hint="share of the audience that gets it; the same players always" error={problem("rollout")}>
              {(id) => <Input id={id} inputMode="decimal" autoComplete="off" {...invalid("rollout")} {...form.register("rollout")} />}
            </Field>
          </div>
        </>
      ) : null}
    </fieldset>
  );
}

export function ScheduleFieldset() {
  const { form, problem, invalid } = useDraftForm();
  return (
    <fieldset className={styles.fieldset}>
      <legend>Schedule</legend>
      <p className={`muted ${styles.flush}`}>
        Times are UTC. Empty: from now, with no end.
      </p>
      <div className={styles.grid}>
        <Field label="Starts (UTC)" error={problem("startsAt")}>
          {(id) => <Input id={id} type="datetime-local" {...invalid("startsAt")} {...form.register("startsAt")} />}
        </Field>
        <Field label="Ends (UTC)" error={problem("endsAt")}>
          {(id) => <Input id={id} type="datetime-local" {...invalid("endsAt")} {...form.register("endsAt")} />}
        </Field>
      </div>
    </fieldset>
  );
}

export function LimitsFieldset() {
  const { form, problem, invalid } = useDraftForm();
  return (
    <fieldset className={styles.fieldset}>
      <legend>Limits</legend>
      <div className={styles.grid}>
        <Field label="Activations per player" hint="times one player may get it" error={problem("maxActivationsPerPlayer")}>
          {(id) => <Input id={id} inputMode="numeric" autoComplete="off" {...invalid("maxActivationsPerPlayer")} {...form.register("maxActivationsPerPlayer")} />}
        </Field>
        <Field label="Cooldown" hint="after the previous one was claimed or expired" error={problem("cooldownAmount")}>
          {(id) => (
            <span className={styles.inline}>
              <Input id={id} inputMode="numeric" autoComplete="off" {...invalid("cooldownAmount")} {...form.register("cooldownAmount")} />
              <UnitSelect name="cooldownUnit" label="Cooldown unit" />
            </span>
          )}
        </Field>
        <Field label="Claims in total" hint="across the game; empty: no limit" error={problem("maxClaimsTotal")}>
          {(id) => <Input id={id} inputMode="numeric" autoComplete="off" {...invalid("maxClaimsTotal")} {...form.register("maxClaimsTotal")} />}
        </Field>
      </div>
    </fieldset>
  );
}
