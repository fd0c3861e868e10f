"use client";
// A player's timeline in the support dashboard: everything that happened to the player, newest first,
// filterable by kind, paged ("Show older"), and live while open: the player's offer events refetch it,
// and it is read again every few seconds for what has no event (deliveries, grants decided elsewhere).
import { useCallback, useState } from "react";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Badge, Button, Card, Checkbox } from "@/components/ui";
import type { BadgeTone } from "@/components/ui/badge";
import { Link } from "@/components/ui/link";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";
import { NotFoundPage } from "@/components/shell/not-found-page";
import { TIMELINE_KINDS, type TimelineEntry, type TimelineKind } from "@/lib/offers-client/schemas";
import { describeOffersError, isPlayerNotFound, useOffersApi } from "../api";
import { formatTime } from "../format";
import { useWatchStream } from "../use-watch-stream";
import { KIND_LABELS, entryReason, entrySummary } from "./timeline-words";
import styles from "./timeline.module.css";

const PAGE = 50;
const REFRESH_MS = 10_000;
const TONES: Record<TimelineKind, BadgeTone> = { offer: "accent", reward: "success", delivery: "neutral", support: "warning", activity: "neutral" };

export function PlayerTimeline({ gameId, playerId }: { gameId: string; playerId: string }) {
  const { href } = useOffersEnvironment();
  const { api, keys } = useOffersApi();
  const queryClient = useQueryClient();
  const [kinds, setKinds] = useState<readonly TimelineKind[]>(TIMELINE_KINDS);
  const timeline = useInfiniteQuery({
    queryKey: [...keys.timeline(gameId, playerId), kinds.join(",")],
    queryFn: ({ pageParam, signal }) => api.timeline(gameId, playerId, { kinds: [...kinds], limit: PAGE, ...(pageParam ? { before: pageParam } : {}) }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next,
    refetchInterval: REFRESH_MS,
    enabled: kinds.length > 0,
    ...retryWhileUnavailable,
  });
  const onOfferEvent = useCallback(() => void queryClient.invalidateQueries({ queryKey: keys.timeline(gameId, playerId) }), [queryClient, keys, gameId, playerId]);
  const missing = isPlayerNotFound(timeline.error);
  const live = useWatchStream(missing ? null : api.watchUrl(gameId, playerId), onOfferEvent);
  const playerHref = href(`/offers/${encodeURIComponent(gameId)}/${encodeURIComponent(playerId)}`);

  if (missing) {
    return (
      <NotFoundPage title="No such player" back={{ href: href(`/offers?game=${encodeURIComponent(gameId)}`), label: "Offers" }}>
        {gameId} has no player {playerId} in this environment.
      </NotFoundPage>
    );
  }
  const entries = timeline.data?.pages.flatMap((p) => p.entries) ?? [];
  const toggle = (kind: TimelineKind, on: boolean) => setKinds((now) => TIMELINE_KINDS.filter((k) => (k === kind ? on : now.includes(k))));

  return (
    <div className="stack">
      <div>
        <p className={styles.crumbs}>
          <Link href={href(`/offers?game=${encodeURIComponent(gameId)}`)}>Offers</Link> / {gameId} / <Link href={playerHref}>{playerId}</Link>
        </p>
        <h1 className={styles.heading}>Timeline of {playerId}</h1>
        <p className="muted">
          Everything that happened to this player, newest first: offers and what moved them, rewards granted, their webhook deliveries with every attempt, support grants, and the player’s activity (snapshots pushed, event streams opened and closed).{" "}
          {live.status === "open" ? "Live: new entries appear as they happen." : "Refreshed every 10 seconds."}
        </p>
      </div>

      <Card title="Show">
        <fieldset className={styles.kinds}>
          <legend className="visually-hidden">Kinds of entries to show</legend>
          {TIMELINE_KINDS.map((kind) => (
            <Checkbox key={kind} label={KIND_LABELS[kind]} checked={kinds.includes(kind)} onChange={(e) => toggle(kind, e.target.checked)} />
          ))}
        </fieldset>
      </Card>

      {kinds.length === 0 ? <Alert tone="info">Choose at least one kind of entry to show.</Alert> : null}
      {timeline.isError ? <Alert tone="error">{describeOffersError(timeline.error)}</Alert> : null}
      {timeline.isPending && kinds.length > 0 ? <p className="muted">Loading the timeline…</p> : null}
      {timeline.isSuccess && entries.length === 0 ? <p className="muted" data-testid="timeline-empty">Nothing of these kinds has happened to this player yet.</p> : null}

      {entries.length > 0 ? (
        <ol className={styles.list} data-testid="timeline" aria-label={`Timeline of ${playerId}, newest first`}>
          {entries.map((entry) => (
            <TimelineItem key={`${entry.kind}:${entry.id}`} entry={entry} />
          ))}
        </ol>
      ) : null}

      {timeline.hasNextPage ? (
        <div>
          <Button onClick={() => void timeline.fetchNextPage()} disabled={timeline.isFetchingNextPage} data-testid="timeline-older">
            {timeline.isFetchingNextPage ? "Loading older entries…" : "Show older entries"}
          </Button>
        </div>
      ) : entries.length > 0 ? (
        <p className="muted">That is everything: {entries.length.toLocaleString("en-US")} entries.</p>
      ) : null}
    </div>
  );
}

function TimelineItem({ entry }: { entry: TimelineEntry }) {
  const reason = entryReason(entry);
  return (
    <li className={styles.item} data-kind={entry.kind}>
      <div className={styles.when}>
        <time dateTime={entry.at} title={entry.at}>
          {formatTime(entry.at)}
        </time>
        <Badge tone={TONES[entry.kind]}>{KIND_LABELS[entry.kind].replace(/s$/, "")}</Badge>
      </div>
      <p className={styles.what}>{entrySummary(entry)}</p>
      {reason ? <p className={styles.reason}>Reason: {reason}</p> : null}
      {entry.kind === "delivery" && entry.attempts.length > 0 ? (
        <details className={styles.attempts}>
          <summary>{entry.attempts.length === 1 ? "1 attempt" : `${entry.attempts.length} attempts`}</summary>
          <ul>
            {entry.attempts.map((a, i) => (
              <li key={i}>
                {formatTime(a.at)}: {a.statusCode === null ? `no answer (${a.error ?? "failed"})` : `HTTP ${a.statusCode}`} in {a.latencyMs.toLocaleString("en-US")} ms
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {entry.kind === "reward" ? <p className={styles.meta}>Webhook id {entry.eventId}</p> : null}
    </li>
  );
}
