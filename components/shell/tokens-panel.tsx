"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";

interface TokenSummary {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, { ...init, headers: { Accept: "application/json", "Content-Type": "application/json", ...init?.headers } });
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  if (!response.ok) throw new Error(body.message ?? `HTTP ${response.status}`);
  return body as T;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

/** Lists, creates (shown once) and revokes the signed-in user's personal API tokens. */
export function TokensPanel() {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [created, setCreated] = useState<(TokenSummary & { token: string }) | null>(null);
  const [toRevoke, setToRevoke] = useState<TokenSummary | null>(null);
  const [copied, setCopied] = useState(false);

  const tokens = useQuery({ queryKey: ["tokens"], queryFn: () => api<{ tokens: TokenSummary[] }>("/api/tokens") });
  const create = useMutation({
    mutationFn: (tokenName: string) => api<TokenSummary & { token: string }>("/api/tokens", { method: "POST", body: JSON.stringify({ name: tokenName }) }),
    onSuccess: (token) => {
      setCreated(token);
      setCopied(false);
      setName("");
      void queryClient.invalidateQueries({ queryKey: ["tokens"] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api<{ id: string }>(`/api/tokens/${id}`, { method: "DELETE" }),
    onSuccess: () => {
      setToRevoke(null);
      void queryClient.invalidateQueries({ queryKey: ["tokens"] });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (name.trim()) create.mutate(name.trim());
  }

  return (
    <div className="stack">
      <Card title="New token">
        <form className="row" onSubmit={submit} style={{ alignItems: "flex-end" }}>
          <div style={{ flex: 1, minWidth: 220 }}>
            <Field label="Name" hint="What the token is for, e.g. “release script”.">
              {(id) => <Input id={id} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />}
            </Field>
          </div>
          <Button type="submit" variant="primary" disabled={!name.trim() || create.isPending}>
            {create.isPending ? "Creating…" : "Create token"}
          </Button>
        </form>
        {create.error ? <Alert tone="error">{create.error.message}</Alert> : null}
      </Card>

      <Card title="Your tokens">
        {tokens.isPending ? <p className="muted">Loading…</p> : null}
        {tokens.error ? <Alert tone="error">{tokens.error.message}</Alert> : null}
        {tokens.data && tokens.data.tokens.length === 0 ? <p className="muted">No tokens yet.</p> : null}
        {tokens.data && tokens.data.tokens.length > 0 ? (
          <table className="ui-table" data-testid="tokens">
            <thead>
              <tr>
                <th>Name</th>
                <th>Token</th>
                <th>Created</th>
                <th>Last used</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {tokens.data.tokens.map((t) => (
                <tr key={t.id}>
                  <td>{t.name}</td>
                  <td>
                    <code>{t.prefix}…</code>
                  </td>
                  <td>{when(t.createdAt)}</td>
                  <td>{when(t.lastUsedAt)}</td>
                  <td style={{ textAlign: "right" }}>
                    <Button size="small" variant="danger" onClick={() => setToRevoke(t)}>
                      Revoke
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </Card>

      <Dialog
        open={created !== null}
        onClose={() => setCreated(null)}
        title="Your new token"
        actions={
          <Button variant="primary" onClick={() => setCreated(null)}>
            Done
          </Button>
        }
      >
        <div className="stack">
          <Alert tone="warning">Copy it now: it is not shown again.</Alert>
          <code className="ui-secret" data-testid="new-token">
            {created?.token}
          </code>
          <div>
            <Button
              size="small"
              onClick={async () => {
                if (created) await navigator.clipboard?.writeText(created.token).then(() => setCopied(true), () => setCopied(false));
              }}
            >
              {copied ? "Copied" : "Copy"}
            </Button>
          </div>
        </div>
      </Dialog>

      <Dialog
        open={toRevoke !== null}
        onClose={() => setToRevoke(null)}
        title="Revoke token?"
        actions={
          <>
            <Button onClick={() => setToRevoke(null)}>Cancel</Button>
            <Button variant="danger" disabled={revoke.isPending} onClick={() => toRevoke && revoke.mutate(toRevoke.id)}>
              {revoke.isPending ? "Revoking…" : "Revoke"}
            </Button>
          </>
        }
      >
        <p>
          Scripts using <strong>{toRevoke?.name}</strong> will stop working at once.
        </p>
        {revoke.error ? <Alert tone="error">{revoke.error.message}</Alert> : null}
      </Dialog>
    </div>
  );
}
