"use client";
// A player's offers, counted by status, each as an offer card.
import { Card } from "@/components/ui";
import type { AdminOffer } from "./api";
import { statusLabel } from "@/components/offer-parts/offer-math";
import { OfferCard } from "./offer-card";
import styles from "./offers.module.css";

export function OffersCard({ offers }: { offers: AdminOffer[] }) {
  const counts = offers.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o.status]: (acc[o.status] ?? 0) + 1 }), {});
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
      <div className={styles.offerList}>
        {offers.map((offer) => (
          <OfferCard key={offer.instanceId} offer={offer} />
        ))}
      </div>
    </Card>
  );
}
