"use client";
// The support actions one offer's status allows, as a small menu on its card. The offers service decides
// (its status machine); this only leaves out what it would refuse, so a click rarely ends in a 409.
import type { SupportOfferAction } from "@/lib/offers-client/schemas";
import { Button } from "@/components/ui";
import type { AdminOffer } from "./api";
import styles from "./offers.module.css";

export const ACTION_LABELS: Record<SupportOfferAction, string> = {
  expire: "Expire",
  revoke: "Revoke",
  extend: "Extend",
  "make-claimable": "Make claimable",
};

/** What support may do to an offer of each status (claimed and expired offers are over). */
const ALLOWED: Record<string, SupportOfferAction[]> = {
  inQueue: ["expire", "revoke", "extend"],
  surfaced: ["make-claimable", "extend", "expire", "revoke"],
  viewed: ["make-claimable", "extend", "expire", "revoke"],
  // Earned rewards do not expire: revoke takes them back.
  claimable: ["revoke"],
};

export function allowedActions(status: string): SupportOfferAction[] {
  return ALLOWED[status] ?? [];
}

export function OfferActions({ offer, onAction }: { offer: AdminOffer; onAction: (action: SupportOfferAction) => void }) {
  const actions = allowedActions(offer.status);
  if (actions.length === 0) return null;
  return (
    <details className={styles.offerActions} data-testid="offer-actions">
      <summary>Support actions</summary>
      <div className={styles.offerActionList} role="group" aria-label={`Support actions on ${offer.name}`}>
        {actions.map((action) => (
          <Button key={action} size="small" variant={action === "revoke" || action === "expire" ? "danger" : "default"} onClick={() => onAction(action)} data-testid={`offer-action-${action}`}>
            {ACTION_LABELS[action]}…
          </Button>
        ))}
      </div>
    </details>
  );
}
