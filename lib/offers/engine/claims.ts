/**
 * Exactly-once claims of offers and referrals, with an optional Idempotency-Key. An offer claim's
 * hot path is one statement; the transactional path (`claimOfferIn`, `claimReferralIn`) composes
 * inside a player's transaction. Both write the rows ./claim-rows defines (as values, and as the
 * hot statement's text).
 */
import { createHash } from "node:crypto";
import { and, eq, lte, sql } from "drizzle-orm";
import { callerDeadlineAt, CallerDeadlinePassed, executeStatement, fromDriverRow, isUniqueViolation, rowsOf } from "../../db";
import { OffersError } from "../errors";
import type { OffersExecutor } from "../db";
import { idempotencyKeys, offerEvents, offerInstances, referrals, rewardEvents, rewardLedger, type RewardSource } from "../db/schema";
import type { Reward } from "../contract";
import { claimWrites, CLAIM_FROM, hotClaim, rowValues, type ClaimSource } from "./claim-rows";
import { settle } from "./settle";
import { nextSeq, withPlayerTransaction, type PlayerTx } from "./transaction";
import type { ClaimIdempotency, ClaimOutcome, ClaimRequest, EngineCore, RememberedClaim } from "./types";
import { iso, offerEvent } from "./views";

/** Fingerprint of a claim as parsed: a retry must ask for the same thing (whitespace and key order do not matter). */
export function claimFingerprint(kind: "offer" | "referral", instanceId: string): string {
  return createHash("sha256").update(JSON.stringify([kind, instanceId])).digest("base64url");
}

/** SQL: whether a player has offers that a freed slot or the clock would move (queued, or overdue); HOT_CLAIM answers the same as `unsettled`. */
function unsettledOffers(gameId: string, playerId: string, nowIso: string) {
  return sql`exists (select 1 from offers_instances o
    where o.game_id = ${gameId} and o.player_id = ${playerId}
      and (o.status = 'inQueue' or (o.status in ('surfaced', 'viewed') and o.expires_at <= ${nowIso})))`;
}

/** The row of one Idempotency-Key: its scope is the game, the player and the endpoint. */
function idempotencyKeyOf(gameId: string, playerId: string, remember: ClaimIdempotency) {
  return and(
    eq(idempotencyKeys.gameId, gameId),
    eq(idempotencyKeys.playerId, playerId),
    eq(idempotencyKeys.endpoint, remember.endpoint),
    eq(idempotencyKeys.key, remember.key),
  );
}

/**
 * A claim with an optional Idempotency-Key. The key is stored with the claim, in the same
 * statement (offers) or transaction (referrals), and only when the claim succeeds: a refused
 * claim changed nothing, so its key stays unused. A later claim with the key, within 24 h:
 * the same claim (kind, instanceId) answers the stored rewards (`replayed`); another claim is
 * idempotency-key-reused. Two claims with one key at once: the second waits for the player's
 * lock, then finds the first's key and answers the same.
 */
export async function claimOnce(core: EngineCore, request: ClaimRequest): Promise<ClaimOutcome> {
  const { gameId, playerId, kind, instanceId, idempotency, via = "server" } = request;
  const remember = idempotency ? { ...idempotency, fingerprint: claimFingerprint(kind, instanceId) } : undefined;
  if (kind === "referral") return withPlayerTransaction(core, gameId, playerId, (unit) => claimReferralIn(core, unit, instanceId, via, remember));
  const offer: OfferClaim = { gameId, playerId, instanceId, via, remember };
  try {
    return { rewards: await claimOfferHot(core, offer), replayed: false };
  } catch (error) {
    if (!remember || !(error instanceof OffersError) || (error.code !== "offer-not-claimable" && error.code !== "offer-not-found")) throw error;
    // Refused: the offer may have been claimed with this very key (a retry, or a twin that held the
    // lock), or the key was used for another claim.
    const stored = await storedClaim(core, core.db, gameId, playerId, remember);
    if (stored === "expired") {
      // An expired key the sweep has not purged yet: it is free again.
      await forgetExpiredKey(core, core.db, gameId, playerId, remember);
      return { rewards: await claimOfferHot(core, offer), replayed: false };
    }
    if (stored) return stored;
    throw error;
  }
}

/** The stored answer of a claim made with this key: replayed, or idempotency-key-reused; "expired" or null when none holds. */
async function storedClaim(core: EngineCore, tx: OffersExecutor, gameId: string, playerId: string, remember: RememberedClaim): Promise<ClaimOutcome | "expired" | null> {
  const [row] = await tx.select().from(idempotencyKeys).where(idempotencyKeyOf(gameId, playerId, remember));
  if (!row) return null;
  if (row.expiresAt.getTime() <= core.clock.now().getTime()) return "expired";
  if (row.fingerprint !== remember.fingerprint) throw new OffersError("idempotency-key-reused", "this Idempotency-Key was sent with another claim");
  return { rewards: row.rewards, replayed: true };
}

async function forgetExpiredKey(core: EngineCore, tx: OffersExecutor, gameId: string, playerId: string, remember: ClaimIdempotency): Promise<void> {
  await tx.delete(idempotencyKeys).where(and(idempotencyKeyOf(gameId, playerId, remember), lte(idempotencyKeys.expiresAt, core.clock.now())));
}

/** Under the player's lock: a claim with the same key has committed or has not started. */
async function answeredBefore(core: EngineCore, unit: PlayerTx, remember: RememberedClaim | undefined): Promise<ClaimOutcome | null> {
  if (!remember) return null;
  const stored = await storedClaim(core, unit.tx, unit.gameId, unit.playerId, remember);
  if (stored === "expired") await forgetExpiredKey(core, unit.tx, unit.gameId, unit.playerId, remember);
  else if (stored) return stored;
  return null;
}

/** An offer claim on the hot path: the request with its defaults taken and its key fingerprinted. */
interface OfferClaim {
  gameId: string;
  playerId: string;
  instanceId: string;
  via: RewardSource;
  remember?: RememberedClaim;
}

/** The hot path: one statement (HOT_CLAIM in ./claim-rows), see below. Answers the rewards. */
async function claimOfferHot(core: EngineCore, claim: OfferClaim): Promise<Reward[]> {
  const { gameId, playerId, instanceId } = claim;
  const game = await core.gameSettings(gameId);
  if (!game.exists) throw new OffersError("game-not-found", gameId);
  // The hot write path, in one statement (one round trip, atomic without BEGIN/COMMIT): lock the
  // player's row, move the instance claimable → claimed, write the ledger row (its unique index
  // refuses a second grant), the history row with the player's next sequence id, and the new
  // sequence id, and the reward.granted event of the outbox (deliveries and the feed). It also answers whether the freed slot can change anything (queued or overdue
  // offers), and whether the player changed while this statement waited for the lock (`raced`:
  // its snapshot predates that change), in which case the slots are settled in a transaction.
  // With an Idempotency-Key, the key is stored by the same statement; a key stored meanwhile makes
  // its primary key refuse the insert, and the whole statement (claim included) is undone.
  // Once the player's row is locked, the claim goes ahead only while this caller still waits for it:
  // a PostgreSQL that froze with the statement in its socket must not grant it after a 503.
  const nowDate = core.clock.now();
  const now = iso(nowDate);
  const deadline = callerDeadlineAt(core.db);
  const { statement, params } = hotClaim({ ...claim, now: nowDate, deadline });
  let result: unknown;
  try {
    result = await executeStatement(core.db, statement, params);
  } catch (error) {
    // The ledger's unique index: unreachable while the conditional update holds; were it reached, the
    // statement is undone and nothing is granted twice. The Idempotency-Key's primary key: the key
    // was stored meanwhile by another claim, which claimOnce answers from.
    if (isUniqueViolation(error)) throw new OffersError("offer-not-claimable", instanceId);
    throw error;
  }
  const [outcome] = rowsOf<{ row: Record<string, unknown>; seq: number | string; raced: boolean; unsettled: boolean }>(result);
  if (!outcome) {
    const [existing] = await core.db
      .select({ status: offerInstances.status, late: sql<boolean>`clock_timestamp() >= ${deadline}::timestamptz` })
      .from(offerInstances)
      .where(and(eq(offerInstances.instanceId, instanceId), eq(offerInstances.gameId, gameId), eq(offerInstances.playerId, playerId)));
    // Still claimable: the statement ran after its deadline (PostgreSQL was stalled), so nothing was granted.
    if (existing?.status === CLAIM_FROM && existing.late) throw new CallerDeadlinePassed(`claim of ${instanceId}`);
    throw new OffersError(existing ? "offer-not-claimable" : "offer-not-found", instanceId);
  }
  const claimed = fromDriverRow(offerInstances, outcome.row);
  core.publish([offerEvent(Number(outcome.seq), claimed, "claimable", "claimed", "claim", now)]);
  // The claim is granted and answered whatever happens next; a failed settle is retried by the next read or sweep.
  await settleAfterClaim(core, gameId, playerId, now, outcome).catch((error: unknown) => core.onError(error));
  return claimed.rewards;
}

async function settleAfterClaim(core: EngineCore, gameId: string, playerId: string, now: string, outcome: { raced: boolean; unsettled: boolean }): Promise<void> {
  let unsettled = outcome.unsettled;
  if (!unsettled && outcome.raced) {
    // The claim waited for the lock, so its answer predates that change: ask again, now that the
    // claim is committed (a change committed after this sees the freed slot itself).
    const [fresh] = rowsOf<{ unsettled: boolean }>(await core.db.execute(sql`select ${unsettledOffers(gameId, playerId, now)} as unsettled`));
    unsettled = fresh?.unsettled ?? false;
  }
  if (unsettled) await withPlayerTransaction(core, gameId, playerId, (unit) => settle(unit, "claim"));
}

/** Writes the ledger row, the outbox row and, with a key, the Idempotency-Key row of a claim (the transactional path). */
async function grantIn(unit: PlayerTx, writes: ReturnType<typeof claimWrites>, from: ClaimSource): Promise<void> {
  const inserted = await unit.tx.insert(rewardLedger).values(rowValues(rewardLedger, writes.ledger, from)).onConflictDoNothing().returning({ id: rewardLedger.id });
  // Unreachable while the conditional update holds; if it ever were reached, refuse rather than grant twice.
  if (inserted.length === 0) throw new OffersError("offer-not-claimable", from.sourceId);
  await unit.tx.insert(rewardEvents).values(rowValues(rewardEvents, writes.rewardEvent, from));
  if (writes.idempotency) await unit.tx.insert(idempotencyKeys).values(rowValues(idempotencyKeys, writes.idempotency, from));
}

/**
 * An offer claim inside a player's transaction (composable with other writes of that player):
 * the same rows as the hot path, then the freed slot is settled in the same transaction.
 */
export async function claimOfferIn(core: EngineCore, unit: PlayerTx, instanceId: string, via: RewardSource, idempotency?: ClaimIdempotency): Promise<ClaimOutcome> {
  const remember = idempotency ? { ...idempotency, fingerprint: claimFingerprint("offer", instanceId) } : undefined;
  const replay = await answeredBefore(core, unit, remember);
  if (replay) return replay;
  const writes = claimWrites("offer", unit.now, via, remember);
  const [claimed] = await unit.tx
    .update(offerInstances)
    .set(rowValues(offerInstances, writes.claimed, {} as ClaimSource))
    .where(
      and(
        eq(offerInstances.instanceId, instanceId),
        eq(offerInstances.gameId, unit.gameId),
        eq(offerInstances.playerId, unit.playerId),
        eq(offerInstances.status, CLAIM_FROM),
      ),
    )
    .returning();
  if (!claimed) {
    const [existing] = await unit.tx
      .select({ status: offerInstances.status })
      .from(offerInstances)
      .where(and(eq(offerInstances.instanceId, instanceId), eq(offerInstances.gameId, unit.gameId), eq(offerInstances.playerId, unit.playerId)));
    throw new OffersError(existing ? "offer-not-claimable" : "offer-not-found", instanceId);
  }
  const from: ClaimSource = {
    gameId: claimed.gameId,
    playerId: claimed.playerId,
    sourceId: claimed.instanceId,
    rewards: claimed.rewards,
    offerId: claimed.offerId,
    variantId: claimed.variantId,
  };
  await grantIn(unit, writes, from);
  const seq = nextSeq(unit);
  await unit.tx.insert(offerEvents).values(rowValues(offerEvents, writes.event!, from, seq));
  unit.events.push(offerEvent(seq, claimed, CLAIM_FROM, "claimed", "claim", iso(unit.now)));
  await settle(unit, "claim");
  return { rewards: claimed.rewards, replayed: false };
}

/** A referral claim inside the referrer's transaction. */
export async function claimReferralIn(core: EngineCore, unit: PlayerTx, instanceId: string, via: RewardSource, remember?: RememberedClaim): Promise<ClaimOutcome> {
  const replay = await answeredBefore(core, unit, remember);
  if (replay) return replay;
  const writes = claimWrites("referral", unit.now, via, remember);
  const [claimed] = await unit.tx
    .update(referrals)
    .set(rowValues(referrals, writes.claimed, {} as ClaimSource))
    .where(
      and(
        eq(referrals.instanceId, instanceId),
        eq(referrals.gameId, unit.gameId),
        eq(referrals.referrerId, unit.playerId),
        eq(referrals.status, CLAIM_FROM),
      ),
    )
    .returning();
  if (!claimed) {
    const [existing] = await unit.tx
      .select({ status: referrals.status })
      .from(referrals)
      .where(and(eq(referrals.instanceId, instanceId), eq(referrals.gameId, unit.gameId), eq(referrals.referrerId, unit.playerId)));
    throw new OffersError(existing ? "offer-not-claimable" : "offer-not-found", instanceId);
  }
  await grantIn(unit, writes, { gameId: unit.gameId, playerId: unit.playerId, sourceId: instanceId, rewards: claimed.rewards, offerId: null, variantId: null });
  return { rewards: claimed.rewards, replayed: false };
}
