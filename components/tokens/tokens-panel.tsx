"use client";
// Lists, creates (shown once) and revokes the signed-in user's personal API tokens.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Alert, Button, Card } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { fetchTokens, tokenKeys, type CreatedToken, type TokenSummary } from "./api";
import { NewTokenForm } from "./new-token-form";
import { CreatedTokenDialog } from "./created-token-dialog";
import { RevokeTokenDialog } from "./revoke-token-dialog";

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

export function TokensPanel() {
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [toRevoke, setToRevoke] = useState<TokenSummary | null>(null);
  const tokens = useQuery({ queryKey: tokenKeys.all, queryFn: fetchTokens });

  return (
    <div className="stack">
      <Card title="New token">
        <NewTokenForm onCreated={setCreated} />
      </Card>

      <Card title="Your tokens">
        {tokens.isPending ? <p className="muted">Loading…</p> : null}
        {tokens.isError ? <Alert tone="error">{describeApiError(tokens.error)}</Alert> : null}
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

      <CreatedTokenDialog token={created} onClose={() => setCreated(null)} />
      <RevokeTokenDialog token={toRevoke} onClose={() => setToRevoke(null)} />
    </div>
  );
}
