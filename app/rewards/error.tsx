"use client";
// The players' rewards page when it cannot be rendered: a message in the rewards look, and a retry.
import { RewardsMessage } from "@/components/rewards/rewards-message";
import styles from "@/components/rewards/rewards.module.css";

export default function RewardsError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <RewardsMessage title="Rewards are unavailable right now" tone="warning" testId="rewards-error">
      <p>Something went wrong on our side. Please try again in a moment.</p>
      <p>
        <button type="button" className={styles.claimButton} onClick={() => retry()}>
          Try again
        </button>
      </p>
      {error.digest ? <p className={styles.muted}>Reference: {error.digest}</p> : null}
    </RewardsMessage>
  );
}
