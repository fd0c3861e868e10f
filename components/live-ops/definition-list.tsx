"use client";
// A game's offer definitions: name and id, status, schedule, audience in words, real time, the funnel's
// figures and a sparkline of claims per day; "New offer" starts the form.
import { Link } from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import { Alert, Badge, ButtonLink, Card } from "@/components/ui";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { NotFoundPage } from "@/components/shell/not-found-page";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";
import { describeLiveOpsError, hasCode, useLiveOpsApi, type DefinitionSummary } from "./api";
import { DefinitionStatusBadge } from "./definition-status-badge";
import { formatCount, formatRate, formatSchedule } from "./format";
import { GameHeader } from "./game-header";
import { Sparkline } from "./sparkline";
import styles from "./live-ops.module.css";

const STATUS_ORDER = { active: 0, paused: 1, draft: 2, archived: 3 } as const;

export function DefinitionList({ gameId }: { gameId: string }) {
  const { api, keys } = useLiveOpsApi();
  const { href } = useOffersEnvironment();
  const list = useQuery({ queryKey: keys.definitions(gameId), queryFn: ({ signal }) => api.definitions(gameId, signal), refetchInterval: 30_000, ...retryWhileUnavailable });
  if (hasCode(list.error, "game-not-found")) {
    return (
      <NotFoundPage title="No such game" back={{ href: href("/live-ops"), label: "Live ops" }}>
        The offers service has no game {gameId}. Pick one from the live-ops page.
      </NotFoundPage>
    );
  }
  const definitions = [...(list.data?.definitions ?? [])].sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || a.name.localeCompare(b.name));
  return (
    <div className="stack">
      <GameHeader
        gameId={gameId}
        section="offers"
        actions={
          <ButtonLink href={href(`/live-ops/${encodeURIComponent(gameId)}/new`)} variant="primary" data-testid="new-offer">
            New offer
          </ButtonLink>
        }
      />
      {list.isError ? (
        <Alert tone="error">{describeLiveOpsError(list.error)}</Alert>
      ) : list.failureCount > 0 && list.failureReason ? (
        <Alert tone="warning">{describeLiveOpsError(list.failureReason)}</Alert>
      ) : null}
      {list.isPending ? <p className="muted">Loading offers…</p> : null}
      {list.data && definitions.length === 0 ? <p className="muted">No offers yet. Start with “New offer”.</p> : null}
      {definitions.length > 0 ? (
        <ul className={styles.cards} data-testid="definition-list" aria-label="Offers">
          {definitions.map((d) => (
            <li key={d.offerId}>
              <DefinitionCard gameId={gameId} definition={d} days={list.data?.days ?? 14} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function DefinitionCard({ gameId, definition: d, days }: { gameId: string; definition: DefinitionSummary; days: number }) {
  const claims = d.claimsPerDay.reduce((a, b) => a + b, 0);
  const { href } = useOffersEnvironment();
  return (
    <Card className={styles.definition} data-testid="definition-card" data-offer-id={d.offerId}>
      <div className={styles.definitionHead}>
        <h2>
          <Link href={href(`/live-ops/${encodeURIComponent(gameId)}/offers/${encodeURIComponent(d.offerId)}`)}>{d.name}</Link> <span className={styles.offerId}>{d.offerId}</span>
        </h2>
        <span className="row">
          <DefinitionStatusBadge status={d.status} />
          {d.realTime ? <Badge tone="accent">Real time</Badge> : null}
        </span>
      </div>
      <dl className={styles.facts}>
        <div>
          <dt>Audience</dt>
          <dd>{d.audienceSummary}</dd>
        </div>
        <div>
          <dt>Schedule</dt>
          <dd>{formatSchedule(d.schedule)}</dd>
        </div>
      </dl>
      <dl className={styles.numbers} aria-label="Funnel">
        <div>
          <dt>Assigned</dt>
          <dd>{formatCount(d.funnel.assigned)}</dd>
        </div>
        <div>
          <dt>Surfaced</dt>
          <dd>{formatCount(d.funnel.surfaced)}</dd>
        </div>
        <div>
          <dt>Claimed</dt>
          <dd>{formatCount(d.funnel.claimed)}</dd>
        </div>
        <div>
          <dt>Conversion</dt>
          <dd>{formatRate(d.funnel.conversion)}</dd>
        </div>
        <div>
          <dt>Claims per day</dt>
          <dd>
            <Sparkline values={d.claimsPerDay} label={`${formatCount(claims)} claims over the last ${days} days: ${d.claimsPerDay.join(", ")}`} />
          </dd>
        </div>
      </dl>
    </Card>
  );
}
