/**
 * Support acts of a game server on one of its players, with its API key: a compensation grant and
 * expire, revoke, extend or make claimable an offer instance. The same acts as support's through the
 * admin API (./support, ./support-actions), with the interface's game-server conventions: the player
 * is named by the body's playerId, and unknown body fields are ignored (an `actor` among them too:
 * the actor is always `game-server:<clientId>` of the calling key).
 */
import { z } from "zod";
import { IdempotencyKey } from "./claims";
import { RewardKind } from "./rewards";
import { ExternalId, Identifier, Timestamp } from "./scalars";
import { SupportAmount, SupportReason } from "./support";

export const ServerGrantRequest = z.object({
  playerId: ExternalId,
  /** The reward: a kind and an id the game knows (one of its currencies, or a reward of one of its offer definitions). */
  kind: RewardKind,
  rewardId: Identifier,
  amount: SupportAmount,
  /** Why: shown on the player's timeline and sent in the reward.granted event. */
  reason: SupportReason,
});
export type ServerGrantRequest = z.infer<typeof ServerGrantRequest>;

export const ServerGrantHeaders = z
  .object({
    "idempotency-key": IdempotencyKey.optional().describe(
      "Makes a retried grant safe: the same key with the same request answers the first grant (header Idempotent-Replayed: true), never a " +
        "second one, with any of the game's client ids; the same key with another request answers 422 idempotency-key-reused. Scoped per " +
        "game environment and player; unlike a claim's, the key does not expire.",
    ),
  })
  .loose();

/** Expire, revoke or make claimable: whose offer, and why. */
export const ServerOfferActionRequest = z.object({ playerId: ExternalId, reason: SupportReason });
export type ServerOfferActionRequest = z.infer<typeof ServerOfferActionRequest>;

export const ServerExtendRequest = z.object({
  playerId: ExternalId,
  reason: SupportReason,
  /** The new expiry: later than the current one, at most SUPPORT_EXTEND_MAX_DAYS days from now. */
  expiresAt: Timestamp,
});
export type ServerExtendRequest = z.infer<typeof ServerExtendRequest>;

export const ServerOfferParams = z.object({ instanceId: Identifier });
