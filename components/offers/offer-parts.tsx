// Presentational pieces of an offer, shared by the support dashboard and the players' rewards page:
// status badge, rewards with images and amounts, and condition progress bars. No hooks: they render
// in server and client components alike.
import type { Offer, Reward } from "@/lib/offers/schemas";
import { Badge } from "@/components/ui/badge";
import { conditionLabel, conditionProgress, formatAmount, statusLabel, statusTone } from "./offer-math";
import styles from "./offer-parts.module.css";

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={statusTone(status)} data-testid="offer-status" data-status={status}>
      {statusLabel(status)}
    </Badge>
  );
}

const kindLabels: Record<Reward["kind"], string> = {
  item: "Item",
  coins: "Coins",
  exp: "Experience",
  trust_points: "Trust points",
  loyalty_currency: "Loyalty currency",
};

export function RewardList({ rewards, size = 32 }: { rewards: Reward[]; size?: number }) {
  return (
    <ul className={styles.rewards} aria-label="Rewards">
      {rewards.map((reward) => (
        <li key={`${reward.kind}:${reward.rewardId}`} className={styles.reward} data-testid="reward">
          {reward.image ? (
            // eslint-disable-next-line @next/next/no-img-element -- reward images are data: or remote URLs of the game
            <img src={reward.image} alt="" width={size} height={size} className={styles.rewardImage} />
          ) : (
            <span className={styles.rewardPlaceholder} style={{ width: size, height: size }} aria-hidden="true">
              {reward.name.slice(0, 1).toUpperCase()}
            </span>
          )}
          <span className={styles.rewardText}>
            <span>
              <span className={styles.rewardAmount}>×{formatAmount(reward.amount)}</span> {reward.name}
            </span>
            <span className={styles.rewardKind}>{kindLabels[reward.kind] ?? reward.kind}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

export function ConditionBars({ offer }: { offer: Pick<Offer, "status" | "completionConditions" | "completionTrackers"> }) {
  const rows = conditionProgress(offer);
  if (rows.length === 0) return null;
  return (
    <div className={styles.conditions}>
      {rows.map((row) => {
        const label = conditionLabel(row);
        return (
          <div key={row.key} className={styles.condition}>
            <div className={styles.conditionHead}>
              <span>{label}</span>
              <span className={styles.conditionNumbers}>
                {formatAmount(row.progress)} / {formatAmount(row.amount)}
              </span>
            </div>
            <div
              className={styles.bar}
              role="progressbar"
              aria-label={label}
              aria-valuemin={0}
              aria-valuemax={row.amount}
              aria-valuenow={row.progress}
              aria-valuetext={`${formatAmount(row.progress)} of ${formatAmount(row.amount)}`}
            >
              <div className={[styles.barFill, row.done ? styles.barDone : ""].join(" ")} style={{ width: `${Math.round(row.fraction * 1000) / 10}%` }} />
            </div>
          </div>
        );
      })}
    </div>
  );
}

export function OfferImage({ src, size = 48 }: { src?: string; size?: number }) {
  if (!src) return <span className={styles.offerImagePlaceholder} style={{ width: size, height: size }} aria-hidden="true" />;
  // eslint-disable-next-line @next/next/no-img-element -- offer images are data: or remote URLs of the game
  return <img src={src} alt="" width={size} height={size} className={styles.offerImage} />;
}
