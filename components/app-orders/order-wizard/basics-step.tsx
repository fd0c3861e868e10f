"use client";
// Step 1 of the order wizard: name, display name, kind, repository and owners.
import { useFieldArray, useFormContext } from "react-hook-form";
import { Button, Card, Field, FieldError, Input, Select } from "@/components/ui";
import { COMPONENT_KINDS } from "@/lib/catalog/schema";
import type { OrderFormValues } from "./order-form";
import s from "../app-orders.module.css";

export function BasicsStep() {
  const { register, control, formState } = useFormContext<OrderFormValues>();
  const owners = useFieldArray({ control, name: "owners" });
  const errors = formState.errors;
  return (
    <Card title="Basics">
      <Field label="Name" hint="Lowercase letters, digits and hyphens; the component's id in the catalog." error={errors.name?.message}>
        {(id) => <Input id={id} data-testid="order-name" autoComplete="off" {...register("name")} />}
      </Field>
      <Field label="Display name" error={errors.displayName?.message}>
        {(id) => <Input id={id} data-testid="order-displayName" {...register("displayName")} />}
      </Field>
      <Field label="Kind" error={errors.kind?.message}>
        {(id) => (
          <Select id={id} data-testid="order-kind" {...register("kind")}>
            {COMPONENT_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Repository path" hint="<group>/<project>, e.g. commerce/cart-api" error={errors.repoPath?.message}>
        {(id) => <Input id={id} data-testid="order-repoPath" autoComplete="off" {...register("repoPath")} />}
      </Field>
      <fieldset className="stack">
        <legend>Owners</legend>
        {owners.fields.map((owner, i) => (
          <div key={owner.id} className={s.owners}>
            <Field label={`Owner ${i + 1} user`} error={errors.owners?.[i]?.user?.message}>
              {(id) => <Input id={id} {...register(`owners.${i}.user`)} />}
            </Field>
            <Field label={`Owner ${i + 1} group (optional)`} error={errors.owners?.[i]?.group?.message}>
              {(id) => <Input id={id} {...register(`owners.${i}.group`)} />}
            </Field>
            <Button variant="ghost" size="small" disabled={owners.fields.length === 1} onClick={() => owners.remove(i)}>
              Remove
            </Button>
          </div>
        ))}
        <FieldError>{errors.owners?.message ?? errors.owners?.root?.message}</FieldError>
        <div>
          <Button size="small" onClick={() => owners.append({ user: "", group: "" }, { shouldFocus: false })}>
            Add an owner
          </Button>
        </div>
      </fieldset>
    </Card>
  );
}
