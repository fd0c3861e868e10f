// The delivery figures of a game: lag (the oldest event not delivered yet), waiting deliveries, dead letters.
import type { Overview } from "./api";
import { formatAge, formatTime } from "./format";
import styles from "./webhooks.module.css";

export function DeliveryFigures({ stats }: { stats: Overview["stats"] }) {
  return (
    <div className={styles.figures}>
      <div className={styles.figure}>
        <span className="muted">Delivery lag</span>
        <strong data-testid="delivery-lag">{formatAge(stats.lagSeconds)}</strong>
        <span className="muted">{stats.oldestUndeliveredAt ? `oldest undelivered event: ${formatTime(stats.oldestUndeliveredAt)}` : "every event delivered"}</span>
      </div>
      <div className={styles.figure}>
        <span className="muted">Waiting</span>
        <strong data-testid="deliveries-pending">{stats.pending}</strong>
        <span className="muted">first attempt or a retry</span>
      </div>
      <div className={styles.figure}>
        <span className="muted">Dead letters</span>
        <strong data-testid="dead-letters">{stats.failed}</strong>
        <span className="muted">failed every attempt (24 h); replay below</span>
      </div>
    </div>
  );
}
