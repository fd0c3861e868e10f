"use client";
// A player's page in the support dashboard: snapshot and currencies, offers (status, rewards,
// progress, times, event timeline), ledger and referrals, with the live view beside them. Live
// offer events refresh the player's state, so the offers and ledger follow without a reload.
import Link from "next/link";
import { useCallback } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { describeError, offersApi, OffersProxyError, queryKeys, type AdminOffer, type AdminPlayerState } from "./api";
import { formatTime } from "./format";
import { LiveView } from "./live-view";
import { formatAmount, statusLabel, timeLeftLabel } from "./offer-math";
import { ConditionBars, OfferImage, RewardList, StatusBadge } from "./offer-parts";
import { useNow } from "./use-now";
import { useWatchStream } from "./use-watch-stream";
import styles from "./offers.module.css";

export function PlayerView({ gameId, playerId }: { gameId: string; playerId: string }) {
  const queryClient = useQueryClient();
  const key = queryKeys.player(gameId, playerId);
  const player = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => offersApi.player(gameId, playerId, signal),
    staleTime: 5_000,
    retry: (count, error) => error instanceof OffersProxyError && error.unavailable && count < 100,
    retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 10_000),
  });

  const onOfferEvent = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: key });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- key is derived from gameId and playerId
  }, [queryClient, gameId, playerId]);
  const missing = player.error instanceof OffersProxyError && player.error.code === "player-not-found";
  const live = useWatchStream(missing ? null : offersApi.watchUrl(gameId, playerId), onOfferEvent);

  const data = player.data;
  const online = live.online ?? data?.connected ?? null;

  return (
    <div className="stack">
      <div className={styles.pageHead}>
        <div>
          <p className={styles.crumbs}>
            <Link href={`/offers?game=${encodeURIComponent(gameId)}`}>Offers</Link> / {gameId}
          </p>
          <h1 style={{ margin: 0 }} data-testid="player-title">
            {data?.snapshot.username || playerId} <span className={styles.playerId}>{playerId}</span>
          </h1>
        </div>
        <div className="row">
          {online === null ? null : <Badge tone={online ? "success" : "neutral"}>{online ? "Online" : "Offline"}</Badge>}
          <Button size="small" onClick={() => void player.refetch()} disabled={player.isFetching}>
            {player.isFetching ? "Refreshing…" : "Refresh"}
          </Button>
        </div>
      </div>

      {player.isError ? (
        <Alert tone="error">{describeError(player.error)}</Alert>
      ) : player.failureCount > 0 && player.failureReason ? (
        <Alert tone="warning">{describeError(player.failureReason)}</Alert>
      ) : null}

      <div className={styles.layout}>
        <div className={styles.main}>
          {player.isPending ? <p className="muted">Loading player…</p> : null}
          {data ? (
            <>
              <SnapshotCard state={data} />
              <OffersCard offers={data.offers} />
              <LedgerCard state={data} />
              {data.referrals.length > 0 ? <ReferralsCard state={data} /> : null}
            </>
          ) : null}
        </div>
        {missing ? null : (
          <aside className={styles.aside}>
            <LiveView state={live} />
          </aside>
        )}
      </div>
    </div>
  );
}

function SnapshotCard({ state }: { state: AdminPlayerState }) {
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
      <h3 style={{ margin: "16px 0 4px" }}>Currencies</h3>
      {currencyIds.length === 0 ? (
        <p className="muted">No currencies.</p>
      ) : (
        <table className="ui-table" data-testid="currencies">
          <thead>
            <tr>
              <th>Currency</th>
              <th className={styles.num}>Balance</th>
              <th className={styles.num}>In</th>
              <th className={styles.num}>Out</th>
            </tr>
          </thead>
          <tbody>
            {currencyIds.map((id) => {
              const data = playerData.currencies[id];
              const flow = snapshot.currencies[id];
              return (
                <tr key={id}>
                  <td>
                    <span className="row" style={{ gap: 8 }}>
                      <OfferImage src={data?.image || undefined} size={20} />
                      {data?.name ?? id} <span className="muted">{id}</span>
                    </span>
                  </td>
                  <td className={styles.num}>{formatAmount(data?.balance ?? flow?.balance ?? 0)}</td>
                  <td className={styles.num}>{flow ? formatAmount(flow.in) : "—"}</td>
                  <td className={styles.num}>{flow ? formatAmount(flow.out) : "—"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </Card>
  );
}

function OffersCard({ offers }: { offers: AdminOffer[] }) {
  const counts = offers.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o.status]: (acc[o.status] ?? 0) + 1 }), {});
  return (
    <Card title={`Offers (${offers.length})`} data-testid="offers">
      {offers.length > 0 ? (
        <p className="muted" style={{ marginTop: 0 }}>
          {Object.entries(counts)
            .map(([status, n]) => `${n} ${statusLabel(status).toLowerCase()}`)
            .join(" · ")}
        </p>
      ) : (
        <p className="muted">This player has no offers.</p>
      )}
      <div className={styles.offerList}>
        {offers.map((offer) => (
          <OfferCard key={offer.instanceId} offer={offer} />
        ))}
      </div>
    </Card>
  );
}

function OfferCard({ offer }: { offer: AdminOffer }) {
  const now = useNow();
  return (
    <article className={styles.offer} data-testid="offer" data-instance-id={offer.instanceId} data-status={offer.status}>
      <header className={styles.offerHead}>
        <OfferImage src={offer.image} />
        <div className={styles.offerTitle}>
          <h3 style={{ margin: 0 }}>{offer.name}</h3>
          <span className="muted">
            {offer.offerId} · <code>{offer.instanceId}</code>
          </span>
        </div>
        <div className={styles.offerBadges}>
          {offer.realTime ? <Badge tone="accent">real-time</Badge> : null}
          <StatusBadge status={offer.status} />
        </div>
      </header>
      {offer.description ? <p className={styles.offerDescription}>{offer.description}</p> : null}
      <RewardList rewards={offer.rewards} />
      <ConditionBars offer={offer} />
      <dl className={styles.times}>
        <div>
          <dt>Created</dt>
          <dd>{formatTime(offer.createdAt)}</dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>
            {formatTime(offer.expiresAt)} <span className="muted">({timeLeftLabel(offer, now)})</span>
          </dd>
        </div>
      </dl>
      <details className={styles.timeline}>
        <summary>Timeline ({offer.events.length})</summary>
        <ol>
          {offer.events.map((event) => (
            <li key={event.seq}>
              <time dateTime={event.at}>{formatTime(event.at)}</time> <StatusBadge status={event.toStatus} />{" "}
              <span className="muted">
                {event.fromStatus ? `from ${statusLabel(event.fromStatus).toLowerCase()}` : "assigned"} · {event.cause} · #{event.seq}
              </span>
            </li>
          ))}
        </ol>
      </details>
    </article>
  );
}

function LedgerCard({ state }: { state: AdminPlayerState }) {
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

function ReferralsCard({ state }: { state: AdminPlayerState }) {
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
                  <Link href={`/offers/${encodeURIComponent(state.gameId)}/${encodeURIComponent(other)}`}>{other}</Link>
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
