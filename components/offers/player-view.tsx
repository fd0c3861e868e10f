"use client";
// A player's page in the support dashboard: snapshot and currencies, offers (status, rewards,
// progress, times, event timeline), ledger and referrals, with the live view beside them. Live
// offer events refresh the player's state, so the offers and ledger follow without a reload. Support acts
// from here: a compensation grant, an action on an offer in play, a re-offer, a re-send of deliveries.
import { Link } from "@/components/ui/link";
import { useCallback, useMemo, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Badge, Button, ButtonLink, Card } from "@/components/ui";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";
import type { SupportOfferAction } from "@/lib/offers-client/schemas";
import { describeOffersError, isPlayerNotFound, useOffersApi, type AdminOffer, type SupportGrant } from "./api";
import { GrantCompensationDialog } from "./grant-compensation-dialog";
import { OfferActionDialog } from "./offer-action-dialog";
import { ReofferDialog } from "./reoffer-dialog";
import { ResendDeliveriesDialog } from "./resend-deliveries-dialog";
import { actionOutcome } from "./action-outcome";
import { SupportGrantsTable } from "./support-grants-table";
import { LiveView } from "./live-view";
import { NotFoundPage } from "@/components/shell/not-found-page";
import { SnapshotCard } from "./snapshot-card";
import { OffersCard } from "./offers-card";
import { LedgerCard } from "./ledger-card";
import { ReferralsCard } from "./referrals-card";
import { historyEntries, mergeEntries, useWatchStream } from "./use-watch-stream";
import styles from "./offers.module.css";

/** `me`: the signed-in user's id (a grant they asked for is decided by someone else). */
export function PlayerView({ gameId, playerId, me = null }: { gameId: string; playerId: string; me?: string | null }) {
  const [granting, setGranting] = useState(false);
  const [granted, setGranted] = useState<SupportGrant | null>(null);
  const [acting, setActing] = useState<{ offer: AdminOffer; action: SupportOfferAction } | null>(null);
  const [reoffering, setReoffering] = useState(false);
  const [resending, setResending] = useState(false);
  /** What the last offer action, re-offer or re-send did, in words. */
  const [outcome, setOutcome] = useState<string | null>(null);
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
          <Button size="small" variant="primary" onClick={() => setGranting(true)} disabled={!data} data-testid="grant-compensation">
            Grant compensation
          </Button>
          <ButtonLink size="small" href={href(`/offers/${encodeURIComponent(gameId)}/${encodeURIComponent(playerId)}/timeline`)} data-testid="player-timeline-link">
            Timeline
          </ButtonLink>
          <Button size="small" onClick={() => setReoffering(true)} disabled={!data} data-testid="reoffer">
            Offer again
          </Button>
          <Button size="small" onClick={() => setResending(true)} disabled={!data} data-testid="resend-deliveries">
            Re-send deliveries
          </Button>
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

      {granted ? (
        <Alert tone={granted.status === "granted" ? "success" : "info"} data-testid="grant-outcome">
          {granted.status === "granted"
            ? `Granted ${granted.amount.toLocaleString("en-US")} ${granted.name}. The game server receives it by webhook.`
            : `${granted.amount.toLocaleString("en-US")} ${granted.name} waits for approval by a second person (a lead or another support person).`}
        </Alert>
      ) : null}

      {outcome ? (
        <Alert tone="success" data-testid="action-outcome">
          {outcome}
        </Alert>
      ) : null}

      <OfferActionDialog
        gameId={gameId}
        playerId={playerId}
        target={acting}
        onClose={() => setActing(null)}
        onDone={(result, action) => {
          setActing(null);
          setOutcome(actionOutcome(action, result));
          void queryClient.invalidateQueries({ queryKey: key });
        }}
      />
      <ReofferDialog
        gameId={gameId}
        playerId={playerId}
        open={reoffering}
        onClose={() => setReoffering(false)}
        onDone={(offer) => {
          setReoffering(false);
          setOutcome(`Offered ${offer.name} again: ${offer.status === "inQueue" ? "it waits in the queue for a free slot" : "it is in play now"}.`);
          void queryClient.invalidateQueries({ queryKey: key });
        }}
      />
      <ResendDeliveriesDialog
        gameId={gameId}
        playerId={playerId}
        open={resending}
        onClose={() => setResending(false)}
        onDone={(result) => {
          setResending(false);
          setOutcome(result.replayed === 1 ? "1 delivery is on its way to the game server again." : `${result.replayed} deliveries are on their way to the game server again.`);
          void queryClient.invalidateQueries({ queryKey: keys.deliveries(gameId, playerId) });
        }}
      />

      <GrantCompensationDialog
        gameId={gameId}
        playerId={playerId}
        open={granting}
        onClose={() => setGranting(false)}
        onGranted={(grant) => {
          setGranting(false);
          setGranted(grant);
          void queryClient.invalidateQueries({ queryKey: ["offers"] });
        }}
      />

      <div className={styles.layout}>
        <div className={styles.main}>
          {player.isPending ? <p className="muted">Loading player…</p> : null}
          {data ? (
            <>
              <SnapshotCard state={data} />
              <div className={styles.offersSlot}>
                <OffersCard offers={data.offers} onAction={(offer, action) => setActing({ offer, action })} />
              </div>
              <LedgerCard state={data} />
              {data.supportGrants.length > 0 ? (
                <Card title={`Support grants (${data.supportGrants.length})`} data-testid="support-grants">
                  <SupportGrantsTable grants={data.supportGrants} me={me} label="Support grants" onDecided={() => void queryClient.invalidateQueries({ queryKey: ["offers"] })} />
                </Card>
              ) : null}
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
