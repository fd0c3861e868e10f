"use client";
// The head of a game's live-ops pages: where you are, the game, and its sections (offers, webhooks).
import { Link } from "@/components/ui/link";
import type { ReactNode } from "react";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";
import { useGame } from "./use-game";
import styles from "./live-ops.module.css";

export function GameHeader({ gameId, section, actions }: { gameId: string; section: "offers" | "webhooks"; actions?: ReactNode }) {
  const { game } = useGame(gameId);
  const { href } = useOffersEnvironment();
  const base = `/live-ops/${encodeURIComponent(gameId)}`;
  return (
    <div className={styles.gameHeader}>
      <div className={styles.pageHead}>
        <div>
          <p className={styles.crumbs}>
            <Link href={href("/live-ops")}>Live ops</Link> / {gameId}
          </p>
          <h1 className={styles.flush}>{game?.name ?? gameId}</h1>
        </div>
        {actions ? <div className="row">{actions}</div> : null}
      </div>
      <nav aria-label="Game sections" className={styles.tabs}>
        <Link href={href(base)} className={styles.tab} aria-current={section === "offers" ? "page" : undefined}>
          Offers
        </Link>
        <Link href={href(`${base}/webhooks`)} className={styles.tab} aria-current={section === "webhooks" ? "page" : undefined}>
          Webhooks
        </Link>
      </nav>
    </div>
  );
}
