/**
 * What a support action may do to an offer instance, pure (no database): the status machine's own
 * rules (claimable does not expire, a queued offer holds no slot, claimed and expired are final),
 * and which repeats answer the current state instead of writing again.
 */
import type { OfferStatus, SupportOfferAction } from "../contract";
import { SUPPORT_EXTEND_MAX_DAYS, SUPPORT_EXTEND_MAX_MS } from "../contract";
import { EXPIRABLE } from "./slots";
import type { OfferEventType } from "./types";

/** A step the engine applies, or why not. */
export type SupportStep =
  | { kind: "move"; to: OfferStatus; type: OfferEventType }
  | { kind: "extend"; expiresAt: Date }
  /** The offer already is where the action leads: answer it, write nothing. */
  | { kind: "already" }
  | { kind: "refuse"; code: "offer-transition-refused" | "expiry-out-of-range"; why: string };

export interface SupportTarget {
  status: OfferStatus;
  expiresAt: Date;
}

const refuse = (why: string): SupportStep => ({ kind: "refuse", code: "offer-transition-refused", why });

/** Why an offer of this final status takes no action. */
function finalWhy(status: OfferStatus): string | null {
  if (status === "claimed") return "the offer is claimed: its rewards were granted";
  if (status === "expired") return "the offer has ended (expired or revoked)";
  return null;
}

/**
 * The step of `action` on an offer settled at `now`:
 * - expire: inQueue, surfaced or viewed → expired; claimable is refused (earned rewards do not expire; revoke takes them back);
 * - revoke: any open status → expired (history type `revoked`);
 * - extend: inQueue, surfaced or viewed, to a later expiry at most SUPPORT_EXTEND_MAX_DAYS days from now;
 * - make-claimable: surfaced or viewed → claimable (a queued offer holds no slot yet).
 * Expire and revoke of an ended offer, make-claimable of a claimable one and an extension to the
 * expiry it already has are repeats: `already`.
 */
export function supportStep(action: SupportOfferAction, offer: SupportTarget, now: Date, requestedExpiry?: Date): SupportStep {
  const { status } = offer;
  switch (action) {
    case "expire":
      if (status === "expired") return { kind: "already" };
      if (EXPIRABLE.includes(status)) return { kind: "move", to: "expired", type: "expired" };
      if (status === "claimable") return refuse("a claimable offer does not expire: its rewards are earned (revoke takes them back)");
      return refuse(finalWhy(status)!);
    case "revoke":
      if (status === "expired") return { kind: "already" };
      if (status === "claimed") return refuse(finalWhy(status)!);
      return { kind: "move", to: "expired", type: "revoked" };
    case "make-claimable":
      if (status === "claimable") return { kind: "already" };
      if (status === "surfaced" || status === "viewed") return { kind: "move", to: "claimable", type: "claimable" };
      if (status === "inQueue") return refuse("a queued offer holds no slot yet: it becomes claimable once it has surfaced");
      return refuse(finalWhy(status)!);
    case "extend": {
      if (!requestedExpiry) return { kind: "refuse", code: "expiry-out-of-range", why: "name the new expiry" };
      if (status === "claimable") return refuse("a claimable offer does not expire: there is nothing to extend");
      const final = finalWhy(status);
      if (final) return refuse(final);
      if (requestedExpiry.getTime() === offer.expiresAt.getTime()) return { kind: "already" };
      if (requestedExpiry.getTime() <= offer.expiresAt.getTime()) {
        return { kind: "refuse", code: "expiry-out-of-range", why: `the new expiry must be later than the current one, ${offer.expiresAt.toISOString()}` };
      }
      if (requestedExpiry.getTime() > now.getTime() + SUPPORT_EXTEND_MAX_MS) {
        return { kind: "refuse", code: "expiry-out-of-range", why: `the new expiry may be at most ${SUPPORT_EXTEND_MAX_DAYS} days from now` };
      }
      return { kind: "extend", expiresAt: requestedExpiry };
    }
  }
}
