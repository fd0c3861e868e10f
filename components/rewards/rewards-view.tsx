// The players' rewards page body (server component): balances, then offers ready to claim, active
// offers with their progress and time left, the friends the player invited, and past offers.
import type { ClientBalancesResponse, ClientCampaignsResponse, PlayerReferral } from "@/lib/offers-client/schemas";
import { Balances, ClaimAnnouncement, ClaimsProvider, type ClaimableRewards } from "./claims";
import { ReferralCard } from "./referral-card";
import { RewardOfferCard } from "./reward-offer-card";
import { TimeLeft } from "./time-left";
import styles from "./rewards.module.css";

const order: Record<string, number> = { claimable: 0, surfaced: 1, viewed: 1, inQueue: 2, claimed: 3, expired: 4 };
const referralOrder: Record<PlayerReferral["status"], number> = { claimable: 0, pending: 1, claimed: 2 };

export function RewardsView({
  campaigns,
  referrals,
  balances,
  sessionEndsAt,
}: {
  campaigns: ClientCampaignsResponse;
  referrals: PlayerReferral[];
  /** When the game last reported the balances, and what was claimed since. */
  balances: ClientBalancesResponse;
  sessionEndsAt: number;
}) {
  const offers = [...campaigns.offers].sort((a, b) => (order[a.status] ?? 9) - (order[b.status] ?? 9) || a.expiresAt.localeCompare(b.expiresAt));
  const active = offers.filter((o) => o.status !== "claimed" && o.status !== "expired");
  const past = offers.filter((o) => o.status === "claimed" || o.status === "expired");
  const currencies = Object.values(campaigns.playerData.currencies);
  const name = campaigns.snapshot.username || campaigns.player.snapshot.username;
  const items: ClaimableRewards = Object.fromEntries([
    ...offers.map((o) => [o.instanceId, { name: o.name, rewards: o.rewards }] as const),
    ...referrals.map((r) => [r.instanceId, { name: `Invited ${r.refereeUsername || r.refereeId}`, rewards: r.rewards }] as const),
  ]);

  return (
    <ClaimsProvider items={items}>
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
        <ClaimAnnouncement />
        <Balances currencies={currencies} snapshotAt={balances.snapshotAt} claimedSinceSnapshot={balances.claimedSinceSnapshot} />
      </section>

      <section aria-labelledby="offers-title">
        <h2 id="offers-title" className={styles.sectionTitle}>
          Offers
        </h2>
        {active.length === 0 ? <p className={styles.muted}>Nothing to show yet.</p> : null}
        <div className={styles.grid}>
          {active.map((offer) => (
            <RewardOfferCard key={offer.instanceId} offer={offer} />
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
                <ReferralCard key={referral.instanceId} referral={referral} />
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
              <RewardOfferCard key={offer.instanceId} offer={offer} />
            ))}
          </div>
        </section>
      ) : null}

      <p className={styles.footnote}>
        Session ends <TimeLeft at={sessionEndsAt} mode="session" />. Reopen the link from the game to continue after that.
      </p>
    </div>
    </ClaimsProvider>
  );
}
