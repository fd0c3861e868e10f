"use client";
// A player's snapshot: profile numbers, levels, and currencies (balance, in, out).
import { Card, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import type { AdminPlayerState } from "./api";
import { formatAmount } from "@/components/offer-parts/offer-math";
import { OfferImage } from "@/components/offer-parts/offer-image";
import styles from "./offers.module.css";

export function SnapshotCard({ state }: { state: AdminPlayerState }) {
  const { snapshot, playerData } = state;
  const currencyIds = [...new Set([...Object.keys(playerData.currencies), ...Object.keys(snapshot.currencies)])].sort();
  const levels = Object.entries(snapshot.levels);
  return (
    <Card title="Snapshot" data-testid="snapshot">
      <dl className={styles.facts}>
        <div>
          <dt>Username</dt>
          <dd>{snapshot.username || "—"}</dd>
        </div>
        <div>
          <dt>Days in game</dt>
          <dd>{formatAmount(snapshot.daysInGame)}</dd>
        </div>
        <div>
          <dt>Login streak</dt>
          <dd>{formatAmount(snapshot.loginStreak)}</dd>
        </div>
        <div>
          <dt>Trust score</dt>
          <dd>{formatAmount(snapshot.trustScore)}</dd>
        </div>
        {levels.map(([name, value]) => (
          <div key={name}>
            <dt>Level · {name}</dt>
            <dd>{formatAmount(value.level)}</dd>
          </div>
        ))}
      </dl>
      <h3 className={styles.sectionTitle}>Currencies</h3>
      {currencyIds.length === 0 ? (
        <p className="muted">No currencies.</p>
      ) : (
        <Table label="Currencies" data-testid="currencies">
          <TableHeader>
            <TableRow>
              <TableHead>Currency</TableHead>
              <TableHead className={styles.num}>Balance</TableHead>
              <TableHead className={styles.num}>In</TableHead>
              <TableHead className={styles.num}>Out</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {currencyIds.map((id) => {
              const data = playerData.currencies[id];
              const flow = snapshot.currencies[id];
              return (
                <TableRow key={id}>
                  <TableCell>
                    <span className="row">
                      <OfferImage src={data?.image || undefined} size={20} />
                      {data?.name ?? id} <span className="muted">{id}</span>
                    </span>
                  </TableCell>
                  <TableCell className={styles.num}>{formatAmount(data?.balance ?? flow?.balance ?? 0)}</TableCell>
                  <TableCell className={styles.num}>{flow ? formatAmount(flow.in) : "—"}</TableCell>
                  <TableCell className={styles.num}>{flow ? formatAmount(flow.out) : "—"}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}
