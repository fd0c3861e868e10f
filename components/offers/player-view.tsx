"use client";
// A player's page in the support dashboard: snapshot and currencies, offers (status, rewards,
// progress, times, event timeline), ledger and referrals, with the live view beside them. Live
// offer events refresh the player's state, so the offers and ledger follow without a reload.
import { Link } from "@/components/ui/link";
import { useCallback, useMemo } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Badge, Button } from "@/components/ui";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";
import { describeOffersError, isPlayerNotFound, useOffersApi } from "./api";
import { LiveView } from "./live-view";
import { NotFoundPage } from "@/components/shell/not-found-page";
import { SnapshotCard } from "./snapshot-card";
import { OffersCard } from "./offers-card";
import { LedgerCard } from "./ledger-card";
import { ReferralsCard } from "./referrals-card";
import { historyEntries, mergeEntries, useWatchStream } from "./use-watch-stream";
import styles from "./offers.module.css";

export function PlayerView({ gameId, playerId }: { gameId: string; playerId: string }) {
  const queryClient = useQueryClient();
  const { href } = useOffersEnvironment();
  const { api, keys } = useOffersApi();
  const key = keys.player(gameId, playerId);
  const player = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.player(gameId, playerId, signal),
    staleTime: 5_000,
    ...retryWhileUnavailable,
  });

  const onOfferEvent = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: key });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- key is derived from keys, gameId and playerId
  }, [queryClient, keys, gameId, playerId]);
  const missing = isPlayerNotFound(player.error);
  const live = useWatchStream(missing ? null : api.watchUrl(gameId, playerId), onOfferEvent);

  const data = player.data;
  const online = live.online ?? data?.connected ?? null;
  // The player's recorded events fill the view from before it connected (and across a reload or a gap).
  const history = useMemo(() => historyEntries(data?.offers ?? []), [data?.offers]);
  const liveWithHistory = useMemo(() => ({ ...live, entries: mergeEntries(history, live.entries) }), [live, history]);

  if (missing) {
    return (
      <NotFoundPage title="No such player" back={{ href: href(`/offers?game=${encodeURIComponent(gameId)}`), label: "Offers" }}>
        {gameId} has no player {playerId}. Players appear once their game has sent their first snapshot; search by id or username from the offers page.
      </NotFoundPage>
    );
  }

  return (
    <div className="stack">
      <div className={styles.pageHead}>
        <div>
          <p className={styles.crumbs}>
            <Link href={href(`/offers?game=${encodeURIComponent(gameId)}`)}>Offers</Link> / {gameId}
          </p>
          <h1 className={styles.flush} data-testid="player-title">
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
        <Alert tone="error">{describeOffersError(player.error)}</Alert>
      ) : player.failureCount > 0 && player.failureReason ? (
        <Alert tone="warning">{describeOffersError(player.failureReason)}</Alert>
      ) : null}

      <div className={styles.layout}>
        <div className={styles.main}>
          {player.isPending ? <p className="muted">Loading player…</p> : null}
          {data ? (
            <>
              <SnapshotCard state={data} />
              <div className={styles.offersSlot}>
                <OffersCard offers={data.offers} />
              </div>
              <LedgerCard state={data} />
              {data.referrals.length > 0 ? <ReferralsCard state={data} /> : null}
            </>
          ) : null}
        </div>
        {missing ? null : (
          <aside className={styles.aside}>
            <LiveView state={liveWithHistory} />
          </aside>
        )}
      </div>
    </div>
  );
}
