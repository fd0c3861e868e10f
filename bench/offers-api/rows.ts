/** Rows the offers-api benches seed: a player with gold and a level, and an instance of the one bench offer. */
import { randomUUID } from "node:crypto";
import type { offerInstances, players } from "../../lib/offers/db/schema";

export const BENCH_OFFER_ID = "bench-offer";

export function benchPlayerRow(gameId: string, playerId: string, now: Date): typeof players.$inferInsert {
  return {
    gameId,
    playerId,
    username: playerId,
    currencies: { gold: { balance: 500, in: 1000, out: 500 } },
    levels: { main: { level: 7 } },
    createdAt: now,
    updatedAt: now,
  };
}

/** An instance of the bench offer (spend 100 gold for 10), 40 % along, or done when claimable. */
export function benchInstanceRow(
  gameId: string,
  playerId: string,
  status: (typeof offerInstances.$inferInsert)["status"],
  times: { now: Date; expiresAt: Date },
): typeof offerInstances.$inferInsert {
  return {
    instanceId: randomUUID(),
    gameId,
    playerId,
    offerId: BENCH_OFFER_ID,
    status,
    name: "Bench offer",
    description: "A benchmark offer",
    image: "https://example.com/offer.png",
    rewards: [{ kind: "coins" as const, rewardId: "gold", name: "Gold", amount: 10 }],
    completionConditions: [{ kind: "spendCurrency" as const, id: "gold", name: "Gold", amount: 100 }],
    realTime: false,
    durationSeconds: 86_400,
    priority: 0,
    completionTrackers: { spendCurrency: status === "claimable" ? 100 : 40 },
    createdAt: times.now,
    surfacedAt: times.now,
    expiresAt: times.expiresAt,
    updatedAt: times.now,
  };
}
