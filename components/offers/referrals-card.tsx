"use client";
// A player's referrals, as referrer or referee, with a link to the other player.
import { Link } from "@/components/ui/link";
import { Card, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import type { AdminPlayerState } from "./api";
import { RewardList } from "@/components/offer-parts/reward-list";
import { StatusBadge } from "@/components/offer-parts/status-badge";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";

export function ReferralsCard({ state }: { state: AdminPlayerState }) {
  const { href } = useOffersEnvironment();
  return (
    <Card title="Referrals">
      <Table label="Referrals" stackOnNarrow>
        <TableHeader>
          <TableRow>
            <TableHead>Role</TableHead>
            <TableHead>Other player</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Rewards</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {state.referrals.map((r) => {
            const referrer = r.referrerId === state.playerId;
            const other = referrer ? r.refereeId : r.referrerId;
            return (
              <TableRow key={r.instanceId}>
                <TableCell label="Role">{referrer ? "Referrer" : "Referee"}</TableCell>
                <TableCell label="Other player">
                  <Link href={href(`/offers/${encodeURIComponent(state.gameId)}/${encodeURIComponent(other)}`)}>{other}</Link>
                </TableCell>
                <TableCell label="Status">
                  <StatusBadge status={r.status} />
                </TableCell>
                <TableCell label="Rewards">
                  <RewardList rewards={r.rewards} size={20} />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Card>
  );
}
