// Rewards with their images and amounts. No hooks: server and client components both render it.
import type { Reward } from "@/lib/offers-client/schemas";
import { formatAmount } from "./offer-math";
import styles from "./offer-parts.module.css";

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
