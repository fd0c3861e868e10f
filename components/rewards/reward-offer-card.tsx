// One offer on the players' rewards page: image, status, rewards, progress, time left and the claim button.
import type { Offer } from "@/lib/offers-client/schemas";
import { ConditionBars } from "@/components/offer-parts/condition-bars";
import { OfferImage } from "@/components/offer-parts/offer-image";
import { RewardList } from "@/components/offer-parts/reward-list";
import { StatusBadge } from "@/components/offer-parts/status-badge";
import { ClaimButton } from "./claim-button";
import { TimeLeft } from "./time-left";
import styles from "./rewards.module.css";

export function RewardOfferCard({ offer }: { offer: Offer }) {
  return (
    <article className={styles.card} data-testid="reward-offer" data-instance-id={offer.instanceId} data-status={offer.status} aria-label={offer.name}>
      <header className={styles.cardHead}>
        <OfferImage src={offer.image} size={56} />
        <div className={styles.cardTitle}>
          <h3>{offer.name}</h3>
          <StatusBadge status={offer.status} />
        </div>
      </header>
      {offer.description ? <p className={styles.description}>{offer.description}</p> : null}
      <div>
        <h4 className={styles.label}>Rewards</h4>
        <RewardList rewards={offer.rewards} size={36} />
      </div>
      <ConditionBars offer={offer} />
      <footer className={styles.cardFoot}>
        {offer.status === "claimed" ? null : <TimeLeft at={Date.parse(offer.expiresAt)} status={offer.status} />}
        {offer.status === "claimable" ? <ClaimButton instanceId={offer.instanceId} offerName={offer.name} /> : null}
        {offer.status === "claimed" ? <span className={styles.claimed}>✓ Rewards claimed</span> : null}
      </footer>
    </article>
  );
}
