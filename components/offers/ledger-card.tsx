"use client";
// What a player was granted, newest first, with the offer or referral it came from.
import { Card } from "@/components/ui";
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
        <table className="ui-table">
          <thead>
            <tr>
              <th>Granted</th>
              <th>Source</th>
              <th>Rewards</th>
            </tr>
          </thead>
          <tbody>
            {state.ledger.map((entry) => (
              <tr key={`${entry.sourceKind}:${entry.sourceId}`}>
                <td>{formatTime(entry.grantedAt)}</td>
                <td>
                  {entry.sourceKind === "offer" ? (names.get(entry.sourceId) ?? "Offer") : "Referral"} <code className="muted">{entry.sourceId}</code>
                </td>
                <td>
                  <RewardList rewards={entry.rewards} size={20} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
