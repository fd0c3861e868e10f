"use client";
// A definition's page: what it is (status, version, audience in words, schedule, limits, rollout,
// rewards and variants), its lifecycle actions, the progress of its surfacing job, its funnel and
// per-variant results, and a preview of it as any player of the game.
import { Link } from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import { Alert, Badge, ButtonLink, Card } from "@/components/ui";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { NotFoundPage } from "@/components/shell/not-found-page";
import { RewardList } from "@/components/offer-parts/reward-list";
import { OfferImage } from "@/components/offer-parts/offer-image";
import { conditionLabel } from "@/components/offer-parts/offer-math";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";
import { describeLiveOpsError, hasCode, useLiveOpsApi, type AdminDefinitionDetail } from "./api";
import { DefinitionStatusBadge } from "./definition-status-badge";
import { formatCount, formatSchedule, formatSeconds } from "./format";
import { FunnelSection } from "./funnel-section";
import { JobProgress } from "./job-progress";
import { LifecycleActions } from "./lifecycle-actions";
import { PlayerPreview } from "./player-preview";
import styles from "./live-ops.module.css";

export function DefinitionView({ gameId, offerId }: { gameId: string; offerId: string }) {
  const { api, keys } = useLiveOpsApi();
  const { href } = useOffersEnvironment();
  const detail = useQuery({ queryKey: keys.definition(gameId, offerId), queryFn: ({ signal }) => api.definition(gameId, offerId, signal), ...retryWhileUnavailable });
  const game = `/live-ops/${encodeURIComponent(gameId)}`;
  if (hasCode(detail.error, "offer-not-found") || hasCode(detail.error, "game-not-found")) {
    return (
      <NotFoundPage title="No such offer" back={{ href: href(game), label: "Offers of the game" }}>
        {gameId} has no offer {offerId}. Pick one from the game&apos;s list of offers.
      </NotFoundPage>
    );
  }
  const data = detail.data;
  return (
    <div className="stack">
      <div className={styles.pageHead}>
        <div className={styles.headText}>
          <p className={styles.crumbs}>
            <Link href={href("/live-ops")}>Live ops</Link> / <Link href={href(game)}>{gameId}</Link> / offers
          </p>
          <h1 className={styles.longTitle} data-testid="definition-title">
            {data?.definition.name ?? offerId} <span className={styles.offerId}>{offerId}</span>
          </h1>
        </div>
        {data ? (
          <div className="row">
            <DefinitionStatusBadge status={data.definition.status} />
            <span className="muted" data-testid="definition-version">
              version {data.definition.version}
            </span>
          </div>
        ) : null}
      </div>
      {detail.isError ? (
        <Alert tone="error">{describeLiveOpsError(detail.error)}</Alert>
      ) : detail.failureCount > 0 && detail.failureReason ? (
        <Alert tone="warning">{describeLiveOpsError(detail.failureReason)}</Alert>
      ) : null}
      {detail.isPending ? <p className="muted">Loading the offer…</p> : null}
      {data ? (
        <>
          <div className="row">
            <LifecycleActions gameId={gameId} definition={data.definition} onChanged={() => void detail.refetch()} />
            {data.definition.status !== "archived" ? (
              <ButtonLink href={href(`${game}/offers/${encodeURIComponent(offerId)}/edit`)} data-testid="edit-offer">
                Edit
              </ButtonLink>
            ) : null}
          </div>
          <div className={styles.layout}>
            <div className={styles.column}>
              <DefinitionCard detail={data} />
              <Card title="Surfacing job">
                <JobProgress key={data.definition.version} gameId={gameId} offerId={offerId} initial={data.jobs} />
              </Card>
            </div>
            <div className={styles.column}>
              <FunnelSection gameId={gameId} offerId={offerId} hasVariants={(data.definition.variants?.length ?? 0) > 0} />
              <Card title="Preview as a player">
                <PlayerPreview gameId={gameId} offerId={offerId} version={data.definition.version} />
              </Card>
            </div>
          </div>
        </>
      ) : null}
    </div>
  );
}

function DefinitionCard({ detail }: { detail: AdminDefinitionDetail }) {
  const d = detail.definition;
  const { limits } = d;
  return (
    <Card title="Definition" data-testid="definition-facts">
      <div className="stack">
        <div className={styles.imageAndText}>
          <OfferImage src={d.image} size={56} />
          <p className={styles.longText}>{d.description || <span className="muted">No description.</span>}</p>
        </div>
        <dl className={styles.facts}>
          <div className={styles.wide}>
            <dt>Audience</dt>
            <dd data-testid="audience-summary">{detail.audienceSummary}</dd>
          </div>
          <div>
            <dt>Rollout</dt>
            <dd>{d.rollout}%</dd>
          </div>
          <div>
            <dt>Schedule (UTC)</dt>
            <dd>{formatSchedule(d.schedule)}</dd>
          </div>
          <div>
            <dt>Delivery</dt>
            <dd>{d.realTime ? <Badge tone="accent">Real time</Badge> : "On the next fetch"}</dd>
          </div>
          <div>
            <dt>Duration</dt>
            <dd>{formatSeconds(d.durationSeconds)}</dd>
          </div>
          <div>
            <dt>Priority</dt>
            <dd>{d.priority}</dd>
          </div>
          <div>
            <dt>Activations per player</dt>
            <dd>{limits.maxActivationsPerPlayer}</dd>
          </div>
          <div>
            <dt>Cooldown</dt>
            <dd>{formatSeconds(limits.cooldownSeconds)}</dd>
          </div>
          <div>
            <dt>Claims in total</dt>
            <dd>{limits.maxClaimsTotal === null ? "no limit" : formatCount(limits.maxClaimsTotal)}</dd>
          </div>
          {d.completionConditions?.length ? (
            <div className={styles.wide}>
              <dt>To complete</dt>
              <dd>{d.completionConditions.map((c) => conditionLabel(c)).join("; ")}</dd>
            </div>
          ) : null}
        </dl>
        {d.variants?.length ? (
          <div className="stack">
            <h3 className={styles.flush}>Variants</h3>
            {d.variants.map((v) => (
              <div key={v.variantId} className={styles.compactStack}>
                <span>
                  <strong>{v.variantId}</strong>
                  {v.name ? ` · ${v.name}` : ""} <span className="muted">weight {v.weight}</span>
                </span>
                <RewardList rewards={v.rewards} size={28} />
              </div>
            ))}
          </div>
        ) : (
          <div className={styles.compactStack}>
            <h3 className={styles.flush}>Rewards</h3>
            <RewardList rewards={d.rewards} size={28} />
          </div>
        )}
      </div>
    </Card>
  );
}
