/** What the client and server claim routes share: the Idempotency-Key handling and the answer's message. */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RewardSource } from "../../db/schema";
import type { OffersEngine } from "../../engine";
import type * as S from "../../contract";
import { OffersError } from "../../errors";
import { claimConflictsTotal, claimsTotal } from "../../metrics";

export const CLAIM_MESSAGE = "Rewards claimed";

/** A claim with the request's Idempotency-Key (validated by the route's header schema); marks a replayed answer. */
export async function claimWithKey(
  engine: OffersEngine,
  request: FastifyRequest,
  reply: FastifyReply,
  gameId: string,
  playerId: string,
  body: S.ClientClaimRequest,
  endpoint: "client" | "sdk",
  via: RewardSource,
) {
  const key = request.headers["idempotency-key"];
  const labels = { kind: body.kind, endpoint };
  let outcome;
  try {
    outcome = await engine.claimOnce({ gameId, playerId, kind: body.kind, instanceId: body.instanceId, idempotency: typeof key === "string" ? { key, endpoint } : undefined, via });
  } catch (error) {
    if (error instanceof OffersError && error.code === "offer-not-claimable") claimConflictsTotal.inc(labels);
    throw error;
  }
  if (outcome.replayed) reply.header("idempotent-replayed", "true");
  else claimsTotal.inc(labels);
  return outcome;
}
