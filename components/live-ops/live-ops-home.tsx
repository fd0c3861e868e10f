"use client";
// Live ops start: pick a game; its offers are one click away.
import { Link } from "@/components/ui/link";
import { Alert, Card } from "@/components/ui";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";
import { describeLiveOpsError } from "./api";
import { useGames } from "./use-game";
import styles from "./live-ops.module.css";

export function LiveOpsHome() {
  const games = useGames();
  const { href } = useOffersEnvironment();
  return (
    <div className="stack">
      <div>
        <h1>Live ops</h1>
        <p className="muted">Author offers that surface by themselves for the players who match, on a schedule, within limits; activate them and see how they do.</p>
      </div>
      {games.isError ? (
        <Alert tone="error">{describeLiveOpsError(games.error)}</Alert>
      ) : games.failureCount > 0 && games.failureReason ? (
        <Alert tone="warning">{describeLiveOpsError(games.failureReason)}</Alert>
      ) : null}
      {games.isPending ? <p className="muted">Loading games…</p> : null}
      {games.data && games.data.length === 0 ? <p className="muted">The offers service has no game yet (npm run offers -- games:create).</p> : null}
      {games.data && games.data.length > 0 ? (
        <nav aria-label="Games">
          <ul className={styles.cards} data-testid="game-list">
            {games.data.map((game) => (
              <li key={game.gameId}>
                <Card className={styles.definition}>
                  <h2 className={`${styles.summary} ${styles.gameName}`}>
                    <Link href={href(`/live-ops/${encodeURIComponent(game.gameId)}`)}>{game.name}</Link> <span className={styles.offerId}>{game.gameId}</span>
                  </h2>
                  <p className={`muted ${styles.flush}`}>
                    {game.players} players · {game.maxOfferSlots} offer slots · currencies: {game.currencies.map((c) => c.name).join(", ") || "none"}
                  </p>
                </Card>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </div>
  );
}
