"use client";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { Alert, Badge, Button, Checkbox, Field, Input } from "@/components/ui";
import { devUserNamePattern } from "@/lib/portal/auth/dev-credentials";
import styles from "./shell.module.css";

export interface DevSignInFormProps {
  callbackUrl: string;
  /** Users named in portal.yaml, with the roles it gives them. */
  users: { name: string; roles: string[] }[];
  /** Groups named in portal.yaml, with the roles they give. */
  groups: { path: string; roles: string[] }[];
}

// No maxLength on the input: it would cut a pasted name short without a word; the rule says the limit.
const NAME_RULE = "Use letters, digits, dot, dash or underscore (up to 64).";
// What the development provider accepts (lib/portal/auth/dev-credentials.ts checks the same on the server).
const devSignInSchema = z.object({
  username: z.string().trim().regex(devUserNamePattern, NAME_RULE),
  groups: z.array(z.string()),
});
type DevSignIn = z.infer<typeof devSignInSchema>;

/** The development sign-in: any user name; roles come from portal.yaml for that name and the picked groups. */
export function DevSignInForm({ callbackUrl, users, groups }: DevSignInFormProps) {
  const form = useForm<DevSignIn>({ resolver: zodResolver(devSignInSchema), defaultValues: { username: "", groups: [] } });
  const [refusal, setRefusal] = useState<string | null>(null);
  // Signed in: the button stays busy while the browser loads the next page.
  const [leaving, setLeaving] = useState(false);
  const busy = form.formState.isSubmitting || leaving;
  const [username, picked] = useWatch({ control: form.control, name: ["username", "groups"] });

  const submit = form.handleSubmit(async ({ username, groups: chosen }) => {
    setRefusal(null);
    const result = await signIn("dev", { redirect: false, username, groups: chosen.join(","), callbackUrl });
    if (!result || result.error || !result.ok) {
      setRefusal(result?.error === "CredentialsSignin" ? NAME_RULE : `Sign-in failed: ${result?.error ?? "no answer"}`);
      return;
    }
    setLeaving(true);
    // replace: Back from the page signed into leaves the portal, not to this form again.
    window.location.replace(callbackUrl);
  });

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <Field label="User name" hint="Any name. Its roles come from config/portal.yaml; everyone is an engineer." error={form.formState.errors.username?.message}>
        {(id) => <Input id={id} autoComplete="username" autoFocus required list="dev-users" {...form.register("username")} />}
      </Field>
      <datalist id="dev-users">
        {users.map((u) => (
          <option key={u.name} value={u.name}>
            {u.roles.join(", ")}
          </option>
        ))}
      </datalist>
      {users.length ? (
        <div className="row">
          <span className="muted">Configured:</span>
          {users.map((u) => (
            <button key={u.name} type="button" className="ui-button ui-button--small ui-button--ghost" onClick={() => form.setValue("username", u.name, { shouldValidate: true })}>
              {u.name} <Badge tone="accent">{u.roles.join(", ")}</Badge>
            </button>
          ))}
        </div>
      ) : null}
      {groups.length ? (
        <fieldset className={styles.groups}>
          <legend className="ui-field__label">Groups</legend>
          {groups.map((g) => (
            <Checkbox
              key={g.path}
              name="groups"
              value={g.path}
              checked={picked.includes(g.path)}
              onChange={(e) => form.setValue("groups", e.target.checked ? [...picked, g.path] : picked.filter((p) => p !== g.path))}
              label={
                <>
                  {g.path} <Badge>{g.roles.join(", ")}</Badge>
                </>
              }
            />
          ))}
        </fieldset>
      ) : null}
      {refusal ? <Alert tone="error">{refusal}</Alert> : null}
      <Button type="submit" variant="primary" disabled={busy || !username.trim()}>
        {busy ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
