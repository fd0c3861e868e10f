// What an action on an offer did, in words for the person who asked (a repeat says nothing changed).
import type { SupportOfferAction } from "@/lib/offers-client/schemas";
import type { OfferActionResult } from "./api";
import { formatTime } from "./format";

export function actionOutcome(action: SupportOfferAction, { offer, changed }: OfferActionResult): string {
  if (!changed) return `${offer.name} already was where this leads; nothing changed.`;
  switch (action) {
    case "expire":
      return `${offer.name} expired.`;
    case "revoke":
      return `${offer.name} was revoked: the player can no longer claim it.`;
    case "extend":
      return `${offer.name} now expires ${formatTime(offer.expiresAt)}.`;
    case "make-claimable":
      return `${offer.name} is claimable now.`;
  }
}
