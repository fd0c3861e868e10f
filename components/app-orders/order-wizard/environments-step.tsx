"use client";
// Step 2 of the order wizard: environments, resources and (for a library) its settings.
import { useFormContext, useWatch } from "react-hook-form";
import { Card, Checkbox, Field, FieldError, Input, Select } from "@/components/ui";
import { DEPENDENCY_FLAGS, ENVIRONMENTS, LIBRARY_MODELS } from "@/lib/catalog/schema";
import { DEPENDENCY_LABELS, type OrderFormValues } from "./order-form";
import s from "../app-orders.module.css";

export function EnvironmentsStep() {
  const { register, control, setValue, formState } = useFormContext<OrderFormValues>();
  const [environments, kind] = useWatch({ control, name: ["environments", "kind"] });
  const errors = formState.errors;
  // Kept in ENVIRONMENTS order, whatever order they are ticked in.
  const toggle = (env: string, on: boolean) =>
    setValue("environments", ENVIRONMENTS.filter((x) => (x === env ? on : environments.includes(x))), { shouldValidate: true, shouldDirty: true });
  return (
    <Card title="Environments and resources">
      <fieldset>
        <legend>Environments</legend>
        <div className={s.checks}>
          {ENVIRONMENTS.map((env) => (
            <Checkbox key={env} label={env} checked={environments.includes(env)} onChange={(e) => toggle(env, e.target.checked)} />
          ))}
        </div>
        <FieldError>{errors.environments?.message}</FieldError>
      </fieldset>
      <fieldset>
        <legend>Resources (requested in every environment above)</legend>
        <div className={s.checks}>
          {DEPENDENCY_FLAGS.map((flag) => (
            <Checkbox key={flag} label={DEPENDENCY_LABELS[flag]} {...register(`dependencies.${flag}`)} />
          ))}
        </div>
      </fieldset>
      {kind === "library" ? (
        <fieldset className="stack">
          <legend>Library settings</legend>
          <Field label="Model" error={errors.libraryModel?.message}>
            {(id) => (
              <Select id={id} {...register("libraryModel")}>
                {LIBRARY_MODELS.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Default registry" hint="e.g. npm.example.com" error={errors.libraryRegistry?.message}>
            {(id) => <Input id={id} {...register("libraryRegistry")} />}
          </Field>
        </fieldset>
      ) : null}
    </Card>
  );
}
