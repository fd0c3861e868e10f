// The players' rewards page body (server component): balances, then offers ready to claim, active
// offers with their progress and time left, the friends the player invited, and past offers.
import type { ReactNode } from "react";
import type { ClientCampaignsResponse, Offer, PlayerReferral } from "@/lib/offers/schemas";
import { Badge, type BadgeTone } from "@/components/ui";
import { formatAmount } from "@/components/offers/offer-math";
import { ConditionBars } from "@/components/offers/condition-bars";
import { OfferImage } from "@/components/offers/offer-image";
import { RewardList } from "@/components/offers/reward-list";
import { StatusBadge } from "@/components/offers/status-badge";
import { ClaimButton, type ClaimAction } from "./claim-button";
import { TimeLeft } from "./time-left";
import styles from "./rewards.module.css";

const order: Record<string, number> = { claimable: 0, surfaced: 1, viewed: 1, inQueue: 2, claimed: 3, expired: 4 };

export function RewardsMessage({ title, tone = "info", testId, children }: { title: string; tone?: "info" | "warning" | "error"; testId: string; children: ReactNode }) {
  return (
    <section className={[styles.message, styles[`message_${tone}`]].join(" ")} role={tone === "error" ? "alert" : "status"} data-testid={testId}>
      <h1>{title}</h1>
      {children}
    </section>
  );
}

const referralStatus: Record<PlayerReferral["status"], { label: string; tone: BadgeTone }> = {
  pending: { label: "Waiting for your friend", tone: "warning" },
  claimable: { label: "Claimable", tone: "success" },
  claimed: { label: "Claimed", tone: "accent" },
};
const referralOrder: Record<PlayerReferral["status"], number> = { claimable: 0, pending: 1, claimed: 2 };

export function RewardsView({
  campaigns,
  referrals,
  sessionEndsAt,
  claim,
}: {
  campaigns: ClientCampaignsResponse;
  referrals: PlayerReferral[];
  sessionEndsAt: number;
  claim: ClaimAction;
}) {
  const offers = [...campaigns.offers].sort((a, b) => (order[a.status] ?? 9) - (order[b.status] ?? 9) || a.expiresAt.localeCompare(b.expiresAt));
  const active = offers.filter((o) => o.status !== "claimed" && o.status !== "expired");
  const past = offers.filter((o) => o.status === "claimed" || o.status === "expired");
  const currencies = Object.values(campaigns.playerData.currencies);
  const name = campaigns.snapshot.username || campaigns.player.snapshot.username;

  return (
    <div className={styles.page}>
      <section className={styles.hello}>
        <h1>{name ? `Hi ${name}!` : "Your rewards"}</h1>
        <p className={styles.muted}>
          {active.some((o) => o.status === "claimable") || referrals.some((r) => r.status === "claimable")
            ? "You have rewards ready to claim."
            : active.length > 0
              ? "Complete your offers to earn their rewards."
              : "No offers right now. Check back soon!"}
        </p>
        {currencies.length > 0 ? (
          <ul className={styles.balances} aria-label="Your balances">
            {currencies.map((c) => (
              <li key={c.id}>
                <OfferImage src={c.image || undefined} size={24} />
                <span>
                  <strong>{formatAmount(c.balance)}</strong> {c.name}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      <section aria-labelledby="offers-title">
        <h2 id="offers-title" className={styles.sectionTitle}>
          Offers
        </h2>
        {active.length === 0 ? <p className={styles.muted}>Nothing to show yet.</p> : null}
        <div className={styles.grid}>
          {active.map((offer) => (
            <RewardOfferCard key={offer.instanceId} offer={offer} claim={claim} />
          ))}
        </div>
      </section>

      {referrals.length > 0 ? (
        <section aria-labelledby="referrals-title">
          <h2 id="referrals-title" className={styles.sectionTitle}>
            Friends you invited
          </h2>
          <div className={styles.grid}>
            {[...referrals]
              .sort((a, b) => referralOrder[a.status] - referralOrder[b.status] || b.createdAt.localeCompare(a.createdAt))
              .map((referral) => (
                <ReferralCard key={referral.instanceId} referral={referral} claim={claim} />
              ))}
          </div>
        </section>
      ) : null}

      {past.length > 0 ? (
        <section aria-labelledby="past-title">
          <h2 id="past-title" className={styles.sectionTitle}>
            Claimed and expired
          </h2>
          <div className={styles.grid}>
            {past.map((offer) => (
              <RewardOfferCard key={offer.instanceId} offer={offer} claim={claim} />
            ))}
          </div>
        </section>
      ) : null}

      <p className={styles.footnote}>
        Session ends <TimeLeft at={sessionEndsAt} mode="session" />. Reopen the link from the game to continue after that.
      </p>
    </div>
  );
}

function RewardOfferCard({ offer, claim }: { offer: Offer; claim: ClaimAction }) {
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
        {offer.status === "claimable" ? <ClaimButton instanceId={offer.instanceId} offerName={offer.name} claim={claim} /> : null}
        {offer.status === "claimed" ? <span className={styles.claimed}>✓ Rewards claimed</span> : null}
      </footer>
    </article>
  );
}

function ReferralCard({ referral, claim }: { referral: PlayerReferral; claim: ClaimAction }) {
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
        {referral.status === "claimable" ? <ClaimButton kind="referral" instanceId={referral.instanceId} offerName={title} claim={claim} /> : null}
        {referral.status === "claimed" ? <span className={styles.claimed}>✓ Rewards claimed</span> : null}
      </footer>
    </article>
  );
}
