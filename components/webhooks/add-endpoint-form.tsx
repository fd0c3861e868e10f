"use client";
// Adds a webhook endpoint: its URL and what it is for. The secret comes back once (the caller shows it).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { lengthHint, maxLengthOf, sentenceResolver } from "@/components/forms/sentences";
import { z } from "zod";
import { Alert, Button, Field, Input } from "@/components/ui";
import { WebhookDescription, WebhookUrl } from "@/lib/offers-client/schemas";
import { describeWebhookError, useWebhooksApi, type CreatedEndpoint } from "./api";
import styles from "./webhooks.module.css";

// The rules of the portal's route (the offers service's own schema), said as sentences for people. No
// maxLength on the inputs: a browser would cut a pasted URL short without a word; the form says the limit.
const URL_MAX = maxLengthOf(WebhookUrl);
const DESCRIPTION_MAX = maxLengthOf(WebhookDescription);
const schema = z.object({
  url: z.string().trim().min(1, "Enter the URL of your game server's webhook.").pipe(WebhookUrl),
  description: z.string().trim().pipe(WebhookDescription),
});
type Draft = z.input<typeof schema>;
const resolver = sentenceResolver(schema, { url: "The endpoint URL", description: "The description" });

export function AddEndpointForm({ gameId, onCreated }: { gameId: string; onCreated: (endpoint: CreatedEndpoint) => void }) {
  const queryClient = useQueryClient();
  const { api, keys } = useWebhooksApi();
  const form = useForm<Draft, unknown, z.output<typeof schema>>({ resolver, defaultValues: { url: "", description: "" } });
  const create = useMutation({
    mutationFn: (input: z.output<typeof schema>) => api.create(gameId, input),
    onSuccess: (endpoint) => {
      form.reset();
      onCreated(endpoint);
      void queryClient.invalidateQueries({ queryKey: keys.all(gameId) });
    },
  });
  return (
    <>
      <form className={styles.form} onSubmit={form.handleSubmit((input) => create.mutate(input))} noValidate>
        <div className={styles.grow}>
          <Field label="Endpoint URL" hint={`Where the game server receives reward.granted events (http or https). ${lengthHint(URL_MAX)}`} error={form.formState.errors.url?.message}>
            {(id) => <Input id={id} type="url" placeholder="https://game.example.com/webhooks/rewards" {...form.register("url")} />}
          </Field>
        </div>
        <div className={styles.grow}>
          <Field label="Description" hint={`Optional, e.g. “EU game servers”. ${lengthHint(DESCRIPTION_MAX)}`} error={form.formState.errors.description?.message}>
            {(id) => <Input id={id} {...form.register("description")} />}
          </Field>
        </div>
        <Button type="submit" variant="primary" disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add endpoint"}
        </Button>
      </form>
      {create.isError ? <Alert tone="error">{describeWebhookError(create.error)}</Alert> : null}
    </>
  );
}
