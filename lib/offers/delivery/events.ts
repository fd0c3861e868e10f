/** The public shape of stored reward events: the webhook body and the feed's items are the same object. */
import type { rewardEvents } from "../db/schema";
import { environmentOf, publicGameId } from "../environments";
import type { RewardGrantedEvent } from "../contract";

export type RewardEventRow = typeof rewardEvents.$inferSelect;

export function toRewardGrantedEvent(row: RewardEventRow): RewardGrantedEvent {
  const at = row.occurredAt.toISOString();
  return {
    id: row.eventId,
    type: "reward.granted",
    timestamp: at,
    data: {
      gameId: publicGameId(row.gameId),
      environment: environmentOf(row.gameId),
      playerId: row.playerId,
      kind: row.sourceKind,
      instanceId: row.sourceId,
      ...(row.offerId ? { offerId: row.offerId } : {}),
      ...(row.variantId ? { variant: row.variantId } : {}),
      rewards: row.rewards,
      source: row.source,
      ...(row.actor ? { actor: row.actor } : {}),
      ...(row.approvedBy ? { approvedBy: row.approvedBy } : {}),
      ...(row.reason ? { reason: row.reason } : {}),
      grantedAt: at,
    },
  };
}
