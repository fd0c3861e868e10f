/** The periodic sweep: expiry of offers of players who do not read, and old Idempotency-Keys. */
import { and, inArray, lte } from "drizzle-orm";
import { idempotencyKeys, offerInstances } from "../db/schema";
import { settle } from "./settle";
import { EXPIRABLE } from "./slots";
import { withPlayerTransaction } from "./transaction";
import type { EngineCore } from "./types";

/** Expires overdue offers of every player (and promotes their queues). Answers how many players were settled. */
export async function sweepExpired(core: EngineCore, limit = 500): Promise<number> {
  const now = core.clock.now();
  const due = await core.db
    .selectDistinct({ gameId: offerInstances.gameId, playerId: offerInstances.playerId })
    .from(offerInstances)
    .where(and(inArray(offerInstances.status, [...EXPIRABLE]), lte(offerInstances.expiresAt, now)))
    .limit(limit);
  for (const { gameId, playerId } of due) {
    await withPlayerTransaction(core, gameId, playerId, (unit) => settle(unit, "expiry-sweep"));
  }
  return due.length;
}

/** Deletes Idempotency-Keys older than 24 h. */
export async function purgeIdempotencyKeys(core: EngineCore): Promise<void> {
  await core.db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, core.clock.now()));
}
