"use client";
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Checkbox, Field, Input } from "@/components/ui/input";
import { Badge } from "@/components/ui/badge";

export interface DevSignInFormProps {
  callbackUrl: string;
  /** Users named in portal.yaml, with the roles it gives them. */
  users: { name: string; roles: string[] }[];
  /** Groups named in portal.yaml, with the roles they give. */
  groups: { path: string; roles: string[] }[];
}

/** The development sign-in: any user name; roles come from portal.yaml for that name and the picked groups. */
export function DevSignInForm({ callbackUrl, users, groups }: DevSignInFormProps) {
  const [username, setUsername] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const result = await signIn("dev", { redirect: false, username: username.trim(), groups: picked.join(","), callbackUrl });
    if (!result || result.error || !result.ok) {
      setError(result?.error === "CredentialsSignin" ? "Use letters, digits, dot, dash or underscore (up to 64)." : `Sign-in failed: ${result?.error ?? "no answer"}`);
      setBusy(false);
      return;
    }
    window.location.assign(callbackUrl);
  }

  return (
    <form className="stack" onSubmit={submit}>
      <Field label="User name" hint="Any name. Its roles come from config/portal.yaml; everyone is an engineer.">
        {(id) => (
          <Input
            id={id}
            name="username"
            autoComplete="username"
            autoFocus
            required
            maxLength={64}
            list="dev-users"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        )}
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
            <button key={u.name} type="button" className="ui-button ui-button--small ui-button--ghost" onClick={() => setUsername(u.name)}>
              {u.name} <Badge tone="accent">{u.roles.join(", ")}</Badge>
            </button>
          ))}
        </div>
      ) : null}
      {groups.length ? (
        <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0, gap: 6 }}>
          <legend className="ui-field__label">Groups</legend>
          {groups.map((g) => (
            <Checkbox
              key={g.path}
              name="groups"
              value={g.path}
              checked={picked.includes(g.path)}
              onChange={(e) => setPicked((prev) => (e.target.checked ? [...prev, g.path] : prev.filter((p) => p !== g.path)))}
              label={
                <>
                  {g.path} <Badge>{g.roles.join(", ")}</Badge>
                </>
              }
            />
          ))}
        </fieldset>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Button type="submit" variant="primary" disabled={busy || !username.trim()}>
        {busy ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
