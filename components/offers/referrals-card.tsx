"use client";
// A player's referrals, as referrer or referee, with a link to the other player.
import { Link } from "@/components/ui/link";
import { Card } from "@/components/ui";
import type { AdminPlayerState } from "./api";
import { RewardList } from "@/components/offer-parts/reward-list";
import { StatusBadge } from "@/components/offer-parts/status-badge";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";

export function ReferralsCard({ state }: { state: AdminPlayerState }) {
  const { href } = useOffersEnvironment();
  return (
    <Card title="Referrals">
      <table className="ui-table">
        <thead>
          <tr>
            <th>Role</th>
            <th>Other player</th>
            <th>Status</th>
            <th>Rewards</th>
          </tr>
        </thead>
        <tbody>
          {state.referrals.map((r) => {
            const referrer = r.referrerId === state.playerId;
            const other = referrer ? r.refereeId : r.referrerId;
            return (
              <tr key={r.instanceId}>
                <td>{referrer ? "Referrer" : "Referee"}</td>
                <td>
                  <Link href={href(`/offers/${encodeURIComponent(state.gameId)}/${encodeURIComponent(other)}`)}>{other}</Link>
                </td>
                <td>
                  <StatusBadge status={r.status} />
                </td>
                <td>
                  <RewardList rewards={r.rewards} size={20} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Card>
  );
}
