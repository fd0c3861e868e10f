"use client";
// Creates a personal API token: its name, then the token itself in a dialog (shown once).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm, useWatch } from "react-hook-form";
import { sentenceResolver } from "@/components/forms/sentences";
import { TokenRequest } from "@/lib/portal/contracts/tokens";
import { z } from "zod";
import { Alert, Button, Field, Input } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { createToken, tokenKeys, type CreatedToken } from "./api";
import styles from "./tokens.module.css";

// The body of POST /api/tokens, its route's own schema: no maxLength on the input (it would cut a paste silently).
type NewToken = z.input<typeof TokenRequest>;
const resolver = sentenceResolver(TokenRequest, { name: "The token's name" });

export function NewTokenForm({ onCreated }: { onCreated: (token: CreatedToken) => void }) {
  const queryClient = useQueryClient();
  const form = useForm<NewToken, unknown, z.output<typeof TokenRequest>>({ resolver, defaultValues: { name: "" } });
  const create = useMutation({
    mutationFn: createToken,
    onSuccess: (token) => {
      form.reset();
      onCreated(token);
      void queryClient.invalidateQueries({ queryKey: tokenKeys.all });
    },
  });
  const named = useWatch({ control: form.control, name: "name" }).trim() !== "";
  return (
    <>
      <form className={styles.newToken} onSubmit={form.handleSubmit(({ name }) => create.mutate(name))} noValidate>
        <div className={styles.nameField}>
          <Field label="Name" hint="What the token is for, e.g. “release script”." error={form.formState.errors.name?.message}>
            {(id) => <Input id={id} {...form.register("name")} />}
          </Field>
        </div>
        <Button type="submit" variant="primary" disabled={!named || create.isPending}>
          {create.isPending ? "Creating…" : "Create token"}
        </Button>
      </form>
      {create.isError ? <Alert tone="error">{describeApiError(create.error)}</Alert> : null}
    </>
  );
}
