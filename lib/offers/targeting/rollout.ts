/**
 * Deterministic per-player draws: whether a player is inside a rollout percentage, and which reward
 * variant they get. Each is a hash of (game, offer, player) — never random — so the answer never
 * flips between evaluations, instances or service restarts. The SQL compiler (./audience-sql)
 * computes the same bucket in the database, so audience counts agree with the engine.
 */
import { createHash } from "node:crypto";
import { publicGameId } from "../environments";

/** The player's point in [0, 1) for a purpose (`rollout`, `variant`): the first 32 bits of an MD5. */
export function bucketOf(purpose: "rollout" | "variant", gameId: string, offerId: string, playerId: string): number {
  // By the public game id: a player draws the same in the test environment as in live.
  const digest = createHash("md5").update(`${purpose}:${publicGameId(gameId)}:${offerId}:${playerId}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/** Whether the player is inside a rollout of `percent` (0–100). 100 takes everyone, 0 no one. */
export function inRollout(percent: number, gameId: string, offerId: string, playerId: string): boolean {
  if (percent >= 100) return true;
  if (percent <= 0) return false;
  return bucketOf("rollout", gameId, offerId, playerId) * 100 < percent;
}

/** The variant a player gets, by weight (variants in their listed order). */
export function pickVariant<V extends { weight: number }>(variants: readonly V[], gameId: string, offerId: string, playerId: string): V {
  const total = variants.reduce((sum, v) => sum + v.weight, 0);
  let point = bucketOf("variant", gameId, offerId, playerId) * total;
  for (const variant of variants) {
    if (point < variant.weight) return variant;
    point -= variant.weight;
  }
  return variants[variants.length - 1];
}
