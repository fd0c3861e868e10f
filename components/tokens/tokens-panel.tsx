"use client";
// Lists, creates (shown once) and revokes the signed-in user's personal API tokens.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Alert, Button, Card, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { fetchTokens, tokenKeys, type CreatedToken, type TokenSummary } from "./api";
import { NewTokenForm } from "./new-token-form";
import { CreatedTokenDialog } from "./created-token-dialog";
import { RevokeTokenDialog } from "./revoke-token-dialog";
import styles from "./tokens.module.css";

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
          <Table label="Your tokens" data-testid="tokens" stackOnNarrow>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Token</TableHead>
                <TableHead>Created</TableHead>
                <TableHead>Last used</TableHead>
                <TableHead />
              </TableRow>
            </TableHeader>
            <TableBody>
              {tokens.data.tokens.map((t) => (
                <TableRow key={t.id}>
                  <TableCell label="Name">{t.name}</TableCell>
                  <TableCell label="Token">
                    <code>{t.prefix}…</code>
                  </TableCell>
                  <TableCell label="Created">{when(t.createdAt)}</TableCell>
                  <TableCell label="Last used">{when(t.lastUsedAt)}</TableCell>
                  <TableCell className={styles.revokeCell}>
                    <Button size="small" variant="danger" onClick={() => setToRevoke(t)}>
                      Revoke
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
      </Card>

      <CreatedTokenDialog token={created} onClose={() => setCreated(null)} />
      <RevokeTokenDialog token={toRevoke} onClose={() => setToRevoke(null)} />
    </div>
  );
}
