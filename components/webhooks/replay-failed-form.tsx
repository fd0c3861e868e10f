"use client";
// Replays every failed delivery whose event happened in a time range (of one endpoint, or all).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { Alert, Button, Card, Field, Input, Select } from "@/components/ui";
import { describeWebhookError, useWebhooksApi, type Endpoint } from "./api";
import { toLocalInput } from "./format";
import styles from "./webhooks.module.css";

const localTime = z.string().min(1, "Pick a date and time.").refine((v) => !Number.isNaN(Date.parse(v)), "This is not a date and time; pick one.");
const schema = z
  .object({ from: localTime, to: localTime, endpointId: z.string() })
  .refine((r) => Date.parse(r.from) < Date.parse(r.to), { message: "Pick a time after From.", path: ["to"] });
type Range = z.input<typeof schema>;

export function ReplayFailedForm({ gameId, endpoints }: { gameId: string; endpoints: Endpoint[] }) {
  const queryClient = useQueryClient();
  const { api, keys } = useWebhooksApi();
  const [now] = useState(() => Date.now());
  const form = useForm<Range, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { from: toLocalInput(now - 24 * 3600 * 1000), to: toLocalInput(now + 60 * 1000), endpointId: "" },
  });
  const replay = useMutation({
    // The inputs are in the browser's time zone; the API takes instants.
    mutationFn: (range: z.output<typeof schema>) =>
      api.replayFailed(gameId, { from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString(), ...(range.endpointId ? { endpointId: range.endpointId } : {}) }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.all(gameId) }),
  });
  return (
    <Card title="Replay failed deliveries">
      <div className="stack">
        <p className="muted">Sends again, with the same webhook-id, every delivery that failed all its attempts and whose event happened in the range.</p>
        <form className={styles.form} noValidate onSubmit={form.handleSubmit((range) => replay.mutate(range))}>
          <Field label="From" error={form.formState.errors.from?.message}>
            {(id) => <Input id={id} type="datetime-local" {...form.register("from")} />}
          </Field>
          <Field label="To" error={form.formState.errors.to?.message}>
            {(id) => <Input id={id} type="datetime-local" {...form.register("to")} />}
          </Field>
          <Field label="Endpoint">
            {(id) => (
              <Select id={id} {...form.register("endpointId")}>
                <option value="">Every endpoint</option>
                {endpoints.map((e) => (
                  <option key={e.endpointId} value={e.endpointId}>
                    {e.url}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Button type="submit" disabled={replay.isPending}>
            {replay.isPending ? "Replaying…" : "Replay failed"}
          </Button>
        </form>
        {replay.isSuccess ? (
          <Alert tone="success">
            {replay.data.replayed === 0 ? "No failed deliveries in this range." : `${replay.data.replayed} failed deliver${replay.data.replayed === 1 ? "y" : "ies"} queued again.`}
          </Alert>
        ) : null}
        {replay.isError ? <Alert tone="error">{describeWebhookError(replay.error)}</Alert> : null}
      </div>
    </Card>
  );
}
