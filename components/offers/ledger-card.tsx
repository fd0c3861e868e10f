"use client";
// What a player was granted, newest first, with the offer or referral it came from.
import { Card, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import type { AdminPlayerState } from "./api";
import { formatTime } from "./format";
import { RewardList } from "@/components/offer-parts/reward-list";

export function LedgerCard({ state }: { state: AdminPlayerState }) {
  const names = new Map(state.offers.map((o) => [o.instanceId, o.name]));
  return (
    <Card title={`Ledger (${state.ledger.length})`} data-testid="ledger">
      {state.ledger.length === 0 ? (
        <p className="muted">Nothing granted yet.</p>
      ) : (
        <Table label="Ledger" stackOnNarrow>
          <TableHeader>
            <TableRow>
              <TableHead>Granted</TableHead>
              <TableHead>Source</TableHead>
              <TableHead>Rewards</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {state.ledger.map((entry) => (
              <TableRow key={`${entry.sourceKind}:${entry.sourceId}`}>
                <TableCell label="Granted">{formatTime(entry.grantedAt)}</TableCell>
                <TableCell label="Source">
                  {entry.sourceKind === "offer" ? (names.get(entry.sourceId) ?? "Offer") : entry.sourceKind === "support" ? "Support grant" : "Referral"} <code className="muted">{entry.sourceId}</code>
                </TableCell>
                <TableCell label="Rewards">
                  <RewardList rewards={entry.rewards} size={20} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}
