"use client";
// The order wizard: three steps (basics; environments and resources; review), checked as you type
// with the server's own check (order-form.ts), and a live preview of the YAML record the merge
// request adds.
import { useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Card } from "@/components/ui";
import { ApiError, describeApiError, formatIssuePath } from "@/components/http/api-client";
import type { Component } from "@/lib/catalog/schema";
import { buildRecord, recordYaml, resourcesOf, validateOrder, type AppOrder, type OrderInput } from "@/lib/portal/app-orders/model";
import { orderKeys, submitOrder } from "../api";
import { ORDER_STEPS, STEP_FIELDS, emptyOrder, errorsOf, orderOf, orderResolver, stepOf, type OrderFormValues } from "./order-form";
import { BasicsStep } from "./basics-step";
import { EnvironmentsStep } from "./environments-step";
import { ReviewStep } from "./review-step";
import { OrderCreated } from "./order-created";
import s from "../app-orders.module.css";

export function OrderWizard({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const form = useForm<OrderFormValues, unknown, OrderInput>({ resolver: orderResolver, mode: "onChange", defaultValues: emptyOrder(userId) });
  const [step, setStep] = useState(0);
  const [created, setCreated] = useState<AppOrder | null>(null);

  const values = useWatch({ control: form.control }) as OrderFormValues;
  const order = orderOf(values);
  const validation = validateOrder(order);
  const preview = recordYaml(buildRecord(order) as unknown as Component);
  const resources = validation.ok ? resourcesOf(validation.component) : [];

  const submit = useMutation({
    mutationFn: submitOrder,
    onSuccess: (sent) => {
      setCreated(sent);
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
    },
    onError: (error) => {
      // The server's issues (or a taken name) go next to their fields, and the wizard opens that step.
      if (!(error instanceof ApiError)) return;
      const issues = error.issues.length
        ? error.issues.map((i) => ({ path: formatIssuePath(i.path), message: i.message }))
        : error.code === "name-taken"
          ? [{ path: "metadata.name", message: describeApiError(error) }]
          : [];
      const fields = Object.entries(errorsOf(issues, "server"));
      for (const [field, fieldError] of fields) form.setError(field as keyof OrderFormValues, fieldError);
      if (fields.length) setStep(Math.min(...fields.map(([field]) => stepOf(field))));
    },
  });
  const fieldFailure = submit.error instanceof ApiError && (submit.error.issues.length > 0 || submit.error.code === "name-taken");

  if (created) {
    return (
      <OrderCreated
        order={created}
        onAnother={() => {
          setCreated(null);
          submit.reset();
          form.reset({ ...form.getValues(), name: "", displayName: "", repoPath: "" });
          setStep(0);
        }}
      />
    );
  }

  const next = async () => {
    if (await form.trigger(STEP_FIELDS[step], { shouldFocus: true })) setStep((n) => Math.min(n + 1, ORDER_STEPS.length - 1));
  };

  return (
    <FormProvider {...form}>
      <div className={s.layout}>
        <form className="stack" onSubmit={form.handleSubmit((input) => submit.mutate(input))} noValidate>
          <ol className={s.steps} aria-label="Steps">
            {ORDER_STEPS.map((label, i) => (
              <li key={label} className={i === step ? `${s.step} ${s.stepActive}` : s.step} aria-current={i === step ? "step" : undefined}>
                {i + 1}. {label}
              </li>
            ))}
          </ol>

          {step === 0 ? <BasicsStep /> : null}
          {step === 1 ? <EnvironmentsStep /> : null}
          {step === 2 ? (
            <ReviewStep resources={resources} issues={validation.ok ? [] : validation.issues} failure={submit.isError && !fieldFailure ? describeApiError(submit.error) : null} />
          ) : null}

          {/* Keyed apart: React must not turn the Next button under the pointer into the submit button
              (a browser would then send the order on the click that reaches the review). */}
          <div className="row">
            {step > 0 ? <Button onClick={() => setStep((n) => n - 1)}>Back</Button> : null}
            {step < ORDER_STEPS.length - 1 ? (
              <Button key="next" variant="primary" onClick={() => void next()} data-testid="order-next">
                Next
              </Button>
            ) : (
              <Button key="submit" type="submit" variant="primary" data-testid="order-submit" disabled={!validation.ok || submit.isPending}>
                {submit.isPending ? "Sending…" : "Send the order"}
              </Button>
            )}
          </div>
        </form>
        <Card title="The record (YAML)">
          <pre className={s.preview} data-testid="order-preview">
            {preview}
          </pre>
        </Card>
      </div>
    </FormProvider>
  );
}
