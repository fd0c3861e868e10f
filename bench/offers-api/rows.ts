/**
 * What the offers-api benches seed: a player with gold and a level, an instance of the one bench
 * offer, the readers of the campaigns runs (five offers each) and their game JWTs.
 */
import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import type { OffersDatabase } from "../../lib/offers/db";
import { offerInstances, players } from "../../lib/offers/db/schema";

export const BENCH_OFFER_ID = "bench-offer";

/** The one bench offer: spend 100 gold for 10. */
export const BENCH_OFFER_DEFINITION = {
  name: "Bench offer",
  description: "A benchmark offer",
  rewards: [{ kind: "coins" as const, rewardId: "gold", name: "Gold", amount: 10 }],
  completionConditions: [{ kind: "spendCurrency" as const, id: "gold", name: "Gold", amount: 100 }],
  realTime: false,
  durationSeconds: 86_400,
  priority: 0,
};

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
    ...BENCH_OFFER_DEFINITION,
    image: "https://example.com/offer.png",
    completionTrackers: { spendCurrency: status === "claimable" ? 100 : 40 },
    createdAt: times.now,
    surfacedAt: times.now,
    expiresAt: times.expiresAt,
    updatedAt: times.now,
  };
}

/**
 * Players `reader-0` … `reader-{count - 1}` of a game, five offers each in every state a client
 * sees (three hold the slots; the expired one is hidden), inserted 400 players at a time (× 5 rows
 * × 18 columns stays under PostgreSQL's 65,535 bind parameters).
 */
export async function insertReaders(db: OffersDatabase, gameId: string, count: number, now: Date): Promise<void> {
  const later = new Date(now.getTime() + 86_400_000);
  const earlier = new Date(now.getTime() - 3_600_000);
  for (let start = 0; start < count; start += 400) {
    const ids = Array.from({ length: Math.min(400, count - start) }, (_, i) => `reader-${start + i}`);
    await db.insert(players).values(ids.map((id) => benchPlayerRow(gameId, id, now)));
    await db.insert(offerInstances).values(
      ids.flatMap((id) => [
        ...(["surfaced", "viewed", "claimable", "claimed"] as const).map((status) => benchInstanceRow(gameId, id, status, { now, expiresAt: later })),
        benchInstanceRow(gameId, id, "expired", { now, expiresAt: earlier }),
      ]),
    );
  }
}

/** A game JWT (HS256 with the game's API key, an hour) of each reader, in order. */
export function readerTokens(gameId: string, apiKey: string, count: number): Promise<string[]> {
  const key = new TextEncoder().encode(apiKey);
  const exp = Math.floor(Date.now() / 1000) + 3_600;
  return Promise.all(
    Array.from({ length: count }, (_, i) => new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setIssuer(gameId).setSubject(`reader-${i}`).setExpirationTime(exp).sign(key)),
  );
}
