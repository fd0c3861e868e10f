"use client";
// A player's offers, counted by status, each as an offer card: those in play first, the past ones folded.
import { Card } from "@/components/ui";
import type { SupportOfferAction } from "@/lib/offers-client/schemas";
import type { AdminOffer } from "./api";
import { statusLabel } from "@/components/offer-parts/offer-math";
import { OfferCard } from "./offer-card";
import styles from "./offers.module.css";

/** Offers that are over: kept for the record, folded below the ones still in play. */
const PAST = new Set(["claimed", "expired"]);

/** `onAction`: support acts on an offer in play (past offers take no action). */
export function OffersCard({ offers, onAction }: { offers: AdminOffer[]; onAction?: (offer: AdminOffer, action: SupportOfferAction) => void }) {
  const counts = offers.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o.status]: (acc[o.status] ?? 0) + 1 }), {});
  const current = offers.filter((o) => !PAST.has(o.status));
  const past = offers.filter((o) => PAST.has(o.status));
  return (
    <Card title={`Offers (${offers.length})`} data-testid="offers">
      {offers.length > 0 ? (
        <p className={`muted ${styles.statusCounts}`}>
          {Object.entries(counts)
            .map(([status, n]) => `${n} ${statusLabel(status).toLowerCase()}`)
            .join(" · ")}
        </p>
      ) : (
        <p className="muted">This player has no offers.</p>
      )}
      {offers.length > 0 && current.length === 0 ? <p className="muted">No offer is in play now.</p> : null}
      <div className={styles.offerList}>
        {current.map((offer) => (
          <OfferCard key={offer.instanceId} offer={offer} onAction={onAction ? (action) => onAction(offer, action) : undefined} />
        ))}
      </div>
      {past.length > 0 ? (
        <details className={styles.pastOffers} data-testid="past-offers">
          <summary>
            {past.length === 1 ? "1 past offer" : `${past.length} past offers`} (claimed or expired)
          </summary>
          <div className={styles.offerList}>
            {past.map((offer) => (
              <OfferCard key={offer.instanceId} offer={offer} />
            ))}
          </div>
        </details>
      ) : null}
    </Card>
  );
}
