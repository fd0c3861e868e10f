"use client";
// The edit page's loader: the stored definition and the game's currencies, then the form on them.
import { Link } from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import { Alert } from "@/components/ui";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { NotFoundPage } from "@/components/shell/not-found-page";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";
import { describeLiveOpsError, hasCode, useLiveOpsApi } from "./api";
import { DefinitionForm } from "./definition-form/definition-form";
import { draftOf, newDraft } from "./definition-form/form-model";
import { DefinitionStatusBadge } from "./definition-status-badge";
import { useGame } from "./use-game";
import styles from "./live-ops.module.css";

export function DefinitionEditor({ gameId, offerId }: { gameId: string; offerId: string }) {
  const { game, ...games } = useGame(gameId);
  const { api, keys } = useLiveOpsApi();
  const { href } = useOffersEnvironment();
  const detail = useQuery({ queryKey: keys.definition(gameId, offerId), queryFn: ({ signal }) => api.definition(gameId, offerId, signal), ...retryWhileUnavailable });
  const page = `/live-ops/${encodeURIComponent(gameId)}/offers/${encodeURIComponent(offerId)}`;
  if (hasCode(detail.error, "offer-not-found") || hasCode(detail.error, "game-not-found")) {
    return (
      <NotFoundPage title="No such offer" back={{ href: href(`/live-ops/${encodeURIComponent(gameId)}`), label: "Offers of the game" }}>
        {gameId} has no offer {offerId}.
      </NotFoundPage>
    );
  }
  const definition = detail.data?.definition;
  return (
    <div className="stack">
      <div className={styles.pageHead}>
        <div className={styles.headText}>
          <p className={styles.crumbs}>
            <Link href={href("/live-ops")}>Live ops</Link> / <Link href={href(`/live-ops/${encodeURIComponent(gameId)}`)}>{gameId}</Link> / <Link href={href(page)}>{offerId}</Link>
          </p>
          <h1 className={styles.longTitle}>Edit {definition?.name ?? offerId}</h1>
        </div>
        {definition ? (
          <div className="row">
            <DefinitionStatusBadge status={definition.status} />
            <span className="muted">version {definition.version}</span>
          </div>
        ) : null}
      </div>
      {detail.isError ? <Alert tone="error">{describeLiveOpsError(detail.error)}</Alert> : null}
      {games.isError ? <Alert tone="error">{describeLiveOpsError(games.error)}</Alert> : null}
      {definition?.status === "active" ? (
        <Alert tone="warning">This offer is live: you will see what changes before it is saved. Offers already given keep what they were given.</Alert>
      ) : null}
      {definition && (game || games.isError) ? (
        <DefinitionForm key={definition.etag} gameId={gameId} currencies={game?.currencies ?? []} initial={draftOf(definition)} existing={definition} />
      ) : detail.isPending || games.isPending ? (
        <p className="muted">Loading the offer…</p>
      ) : null}
    </div>
  );
}

/** The create page: the form on an empty draft, once the game's currencies are known. */
export function DefinitionCreator({ gameId }: { gameId: string }) {
  const { game, ...games } = useGame(gameId);
  const { href } = useOffersEnvironment();
  return (
    <div className="stack">
      <div>
        <p className={styles.crumbs}>
          <Link href={href("/live-ops")}>Live ops</Link> / <Link href={href(`/live-ops/${encodeURIComponent(gameId)}`)}>{gameId}</Link>
        </p>
        <h1 className={styles.flush}>New offer</h1>
      </div>
      {games.isError ? <Alert tone="error">{describeLiveOpsError(games.error)}</Alert> : null}
      {games.data && !game ? (
        <NotFoundPage title="No such game" back={{ href: href("/live-ops"), label: "Live ops" }}>
          The offers service has no game {gameId}.
        </NotFoundPage>
      ) : game ? (
        <DefinitionForm gameId={gameId} currencies={game.currencies} initial={newDraft()} />
      ) : (
        <p className="muted">Loading the game…</p>
      )}
    </div>
  );
}
