"use client";
// One offer of a player: status, rewards, progress, times, its event timeline (support's acts with who
// and why), and the support actions its status allows.
import { Badge } from "@/components/ui";
import type { SupportOfferAction } from "@/lib/offers-client/schemas";
import type { AdminOffer } from "./api";
import { formatTime } from "./format";
import { statusLabel, timeLeftLabel } from "@/components/offer-parts/offer-math";
import { ConditionBars } from "@/components/offer-parts/condition-bars";
import { OfferImage } from "@/components/offer-parts/offer-image";
import { RewardList } from "@/components/offer-parts/reward-list";
import { StatusBadge } from "@/components/offer-parts/status-badge";
import { useNow } from "@/components/offer-parts/use-now";
import { OfferActions } from "./offer-actions";
import styles from "./offers.module.css";

/** `onAction`: support acts on the offer (the menu shows only when given). */
export function OfferCard({ offer, onAction }: { offer: AdminOffer; onAction?: (action: SupportOfferAction) => void }) {
  const now = useNow();
  return (
    <article className={styles.offer} data-testid="offer" data-instance-id={offer.instanceId} data-status={offer.status}>
      <header className={styles.offerHead}>
        <OfferImage src={offer.image} />
        <div className={styles.offerTitle}>
          <h3 className={styles.flush}>{offer.name}</h3>
          <span className="muted">
            {offer.offerId} · <code>{offer.instanceId}</code>
          </span>
        </div>
        <div className={styles.offerBadges}>
          {offer.realTime ? <Badge tone="accent">real-time</Badge> : null}
          <StatusBadge status={offer.status} />
        </div>
      </header>
      {offer.description ? <p className={styles.offerDescription}>{offer.description}</p> : null}
      <RewardList rewards={offer.rewards} />
      <ConditionBars offer={offer} />
      <dl className={styles.times}>
        <div>
          <dt>Created</dt>
          <dd>{formatTime(offer.createdAt)}</dd>
        </div>
        <OfferEnd offer={offer} now={now} />
      </dl>
      {onAction ? <OfferActions offer={offer} onAction={onAction} /> : null}
      <details className={styles.timeline}>
        <summary>Timeline ({offer.events.length})</summary>
        <ol>
          {offer.events.map((event) => (
            <li key={event.seq}>
              <time dateTime={event.at}>{formatTime(event.at)}</time> <StatusBadge status={event.toStatus} />{" "}
              <span className="muted">
                {event.fromStatus ? `from ${statusLabel(event.fromStatus).toLowerCase()}` : "assigned"} · {event.type === "revoked" || event.type === "extended" ? `${event.type} · ` : ""}
                {event.cause} · #{event.seq}
              </span>
              {event.actor ? (
                <span className={styles.eventNote} data-testid="event-note">
                  {" "}
                  by {event.actor}: {event.reason}
                </span>
              ) : null}
            </li>
          ))}
        </ol>
      </details>
    </article>
  );
}

/** When the offer ends, as its status has it: earned (claimable) and claimed offers no longer expire. */
function OfferEnd({ offer, now }: { offer: AdminOffer; now: number }) {
  if (offer.status === "claimable") {
    return (
      <div>
        <dt>Expires</dt>
        <dd>never: earned rewards stay claimable</dd>
      </div>
    );
  }
  if (offer.status === "claimed") return null;
  return (
    <div>
      <dt>{offer.status === "expired" ? "Expired" : "Expires"}</dt>
      <dd>
        {formatTime(offer.expiresAt)}
        {offer.status === "expired" ? null : <span className="muted"> ({timeLeftLabel(offer, now)})</span>}
      </dd>
    </div>
  );
}
