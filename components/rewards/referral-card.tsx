// One friend the player invited, on the rewards page: status, rewards and the claim button.
import type { PlayerReferral } from "@/lib/offers-client/schemas";
import { Badge, type BadgeTone } from "@/components/ui";
import { RewardList } from "@/components/offer-parts/reward-list";
import { ClaimButton } from "./claim-button";
import styles from "./rewards.module.css";

const referralStatus: Record<PlayerReferral["status"], { label: string; tone: BadgeTone }> = {
  pending: { label: "Waiting for your friend", tone: "warning" },
  claimable: { label: "Claimable", tone: "success" },
  claimed: { label: "Claimed", tone: "accent" },
};

export function ReferralCard({ referral }: { referral: PlayerReferral }) {
  const status = referralStatus[referral.status];
  const title = `Invited ${referral.refereeUsername || referral.refereeId}`;
  return (
    <article className={styles.card} data-testid="reward-referral" data-instance-id={referral.instanceId} data-status={referral.status} aria-label={title}>
      <header className={styles.cardHead}>
        <div className={styles.cardTitle}>
          <h3>{title}</h3>
          <Badge tone={status.tone} data-testid="referral-status">
            {status.label}
          </Badge>
        </div>
      </header>
      <p className={styles.description}>
        {referral.status === "pending" ? "Your reward unlocks when your friend starts playing." : "Thanks for bringing a friend to the game!"}
      </p>
      <div>
        <h4 className={styles.label}>Rewards</h4>
        <RewardList rewards={referral.rewards} size={36} />
      </div>
      <footer className={styles.cardFoot}>
        {referral.status === "claimable" ? <ClaimButton kind="referral" instanceId={referral.instanceId} offerName={title} /> : null}
        {referral.status === "claimed" ? <span className={styles.claimed}>✓ Rewards claimed</span> : null}
      </footer>
    </article>
  );
}
