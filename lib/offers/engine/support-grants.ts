/**
 * Support grants of a compensation reward to one player, through the same ledger and outbox as a
 * claim: a granted one writes its ledger row (source kind `support`) and its reward.granted event
 * (source `support`, with who granted and approved it, and why) in the player's transaction, so it
 * is delivered by webhook and read in the feed like any claim. Above the game's thresholds
 * (./four-eyes) a grant is stored pending; a second person approves or rejects it by a conditional
 * update (exactly one decision wins, on any instance); undecided, it expires.
 */
import { createHash, randomUUID } from "node:crypto";
import { and, count, desc, eq, gt, lte, or, sql } from "drizzle-orm";
import type { OffersDatabase, OffersExecutor } from "../db";
import { games, offerDefinitions, players, rewardEvents, rewardLedger, supportGrants } from "../db/schema";
import { OffersError } from "../errors";
import { publicGameId } from "../environments";
import type { ApprovalRule, Reward, RewardKind, SupportGrant, SupportGrantStatus } from "../contract";
import { approvalNeededFor, decisionRefusal, isStale, SUPPORT_GRANT_PENDING_MS, type GrantRequester } from "./four-eyes";
import { withPlayerTransaction, type PlayerTx } from "./transaction";
import type { EngineCore } from "./types";

export type SupportGrantRow = typeof supportGrants.$inferSelect;

export interface SupportGrantAsk {
  gameId: string;
  playerId: string;
  kind: RewardKind;
  rewardId: string;
  amount: number;
  reason: string;
  actor: string;
  /** The request's Idempotency-Key: a retry with it answers the first grant, never a second one. */
  idempotencyKey?: string;
  /** A person (the game's thresholds apply; the default) or the game's own server (granted at once; ./four-eyes). */
  requester?: GrantRequester;
}

export interface SupportGrantOutcome {
  grant: SupportGrantRow;
  /** The stored answer of an earlier request with the same Idempotency-Key (or the same decision made twice). */
  replayed: boolean;
}

export interface SupportDecision {
  gameId: string;
  grantId: string;
  decision: "approve" | "reject";
  actor: string;
  reason?: string;
}

/** Currencies are granted as these kinds; any other reward must be one of the game's offer rewards. */
const CURRENCY_KINDS: readonly RewardKind[] = ["coins", "loyalty_currency"];

/**
 * What makes two requests with one Idempotency-Key the same grant. A person is who they are; a game
 * server is the game, whichever of its client ids sent the retry (its key may have been rotated).
 */
function fingerprintOf(ask: SupportGrantAsk): string {
  const who = ask.requester === "game-server" ? "game-server" : ask.actor.toLowerCase();
  return createHash("sha256").update(JSON.stringify(["support-grant", ask.kind, ask.rewardId, ask.amount, ask.reason, who])).digest("base64url");
}

/**
 * The reward a grant gives, as the game knows it (name and image): one of its currencies (kinds
 * coins and loyalty_currency), or a reward of one of its offer definitions or their variants.
 */
export async function knownReward(core: EngineCore, gameId: string, kind: RewardKind, rewardId: string, amount: number): Promise<Reward> {
  const settings = await core.gameSettings(gameId);
  if (!settings.exists) throw new OffersError("game-not-found", gameId);
  if (CURRENCY_KINDS.includes(kind)) {
    const currency = settings.currencies.find((c) => c.currencyId === rewardId);
    if (currency) return { kind, rewardId, name: currency.name, amount, ...(currency.image ? { image: currency.image } : {}) };
  }
  const probe = JSON.stringify([{ kind, rewardId }]);
  const [definition] = await core.db
    .select({ rewards: offerDefinitions.rewards, variants: offerDefinitions.variants })
    .from(offerDefinitions)
    .where(
      and(
        eq(offerDefinitions.gameId, gameId),
        or(sql`${offerDefinitions.rewards} @> ${probe}::jsonb`, sql`${offerDefinitions.variants} @> ${JSON.stringify([{ rewards: [{ kind, rewardId }] }])}::jsonb`),
      ),
    )
    .limit(1);
  const known = [...(definition?.rewards ?? []), ...(definition?.variants ?? []).flatMap((v) => v.rewards)].find((r) => r.kind === kind && r.rewardId === rewardId);
  if (!known) throw new OffersError("unknown-reward", `${kind} ${rewardId} is none of this game's currencies or offer rewards`);
  return { kind, rewardId, name: known.name, amount, ...(known.image ? { image: known.image } : {}) };
}

/** The game's four-eyes rules, as stored now (not cached: a change applies to the next grant on every instance). */
export async function supportThresholds(db: OffersExecutor, gameId: string): Promise<ApprovalRule[]> {
  const [game] = await db.select({ rules: games.supportApprovalRules }).from(games).where(eq(games.gameId, gameId));
  if (!game) throw new OffersError("game-not-found", gameId);
  return game.rules;
}

export async function setSupportThresholds(db: OffersDatabase, gameId: string, rules: ApprovalRule[]): Promise<ApprovalRule[]> {
  const [game] = await db.update(games).set({ supportApprovalRules: rules }).where(eq(games.gameId, gameId)).returning({ rules: games.supportApprovalRules });
  if (!game) throw new OffersError("game-not-found", gameId);
  return game.rules;
}

/** Writes the ledger row and the reward.granted event of a granted support grant, in the player's transaction. */
async function grantIn(unit: PlayerTx, grant: SupportGrantRow, approvedBy: string | null): Promise<void> {
  const rewards = [grant.reward];
  const inserted = await unit.tx
    .insert(rewardLedger)
    .values({ gameId: grant.gameId, playerId: grant.playerId, sourceKind: "support", sourceId: grant.grantId, rewards, grantedAt: unit.now })
    .onConflictDoNothing()
    .returning({ id: rewardLedger.id });
  // Unreachable while the conditional update holds; were it reached, refuse rather than grant twice.
  if (inserted.length === 0) throw new OffersError("support-grant-decided", grant.grantId);
  await unit.tx.insert(rewardEvents).values({
    gameId: grant.gameId,
    playerId: grant.playerId,
    sourceKind: "support",
    sourceId: grant.grantId,
    rewards,
    source: "support",
    actor: grant.requestedBy,
    approvedBy,
    reason: grant.reason,
    occurredAt: unit.now,
  });
}

/**
 * A support grant: refused (changing nothing) for an unknown player or reward; with a key already
 * used, the first grant is answered (the same request) or idempotency-key-reused (another one).
 * Below the game's thresholds it is granted at once; above, stored pending. A game server's grant
 * is granted at once whatever the thresholds.
 */
export async function requestSupportGrant(core: EngineCore, ask: SupportGrantAsk): Promise<SupportGrantOutcome> {
  const { gameId, playerId } = ask;
  if (!(await core.gameSettings(gameId)).exists) throw new OffersError("game-not-found", gameId);
  // The player's transaction would create a new player: a grant is only for one the game has.
  const [player] = await core.db
    .select({ playerId: players.playerId })
    .from(players)
    .where(and(eq(players.gameId, gameId), eq(players.playerId, playerId)));
  if (!player) throw new OffersError("player-not-found", playerId);
  const reward = await knownReward(core, gameId, ask.kind, ask.rewardId, ask.amount);
  const fingerprint = fingerprintOf(ask);
  return withPlayerTransaction(core, gameId, playerId, async (unit) => {
    // Under the player's lock: a request with the same key has committed or has not started.
    if (ask.idempotencyKey !== undefined) {
      const [earlier] = await unit.tx
        .select()
        .from(supportGrants)
        .where(and(eq(supportGrants.gameId, gameId), eq(supportGrants.playerId, playerId), eq(supportGrants.idempotencyKey, ask.idempotencyKey)));
      if (earlier) {
        if (earlier.fingerprint !== fingerprint) throw new OffersError("idempotency-key-reused", "this Idempotency-Key was sent with another support grant");
        return { grant: earlier, replayed: true };
      }
    }
    const rules = await supportThresholds(unit.tx, gameId);
    const { required } = approvalNeededFor(ask.requester ?? "person", rules, ask);
    const now = unit.now;
    const [grant] = await unit.tx
      .insert(supportGrants)
      .values({
        grantId: `sg_${randomUUID().replaceAll("-", "")}`,
        gameId,
        playerId,
        reward,
        reason: ask.reason,
        requestedBy: ask.actor,
        status: required ? "pending" : "granted",
        approvalRequired: required,
        idempotencyKey: ask.idempotencyKey ?? null,
        fingerprint,
        createdAt: now,
        decidedAt: required ? null : now,
        expiresAt: required ? new Date(now.getTime() + SUPPORT_GRANT_PENDING_MS) : null,
        updatedAt: now,
      })
      .returning();
    if (!required) await grantIn(unit, grant!, null);
    return { grant: grant!, replayed: false };
  });
}

/**
 * Approves or rejects a pending grant: one conditional update (pending, not stale, decided by
 * someone other than the requester), so of concurrent decisions on any instances exactly one
 * wins; an approval writes the grant in the same transaction. The same decision by the same
 * person again (a double click) answers the first; anything else is refused with why.
 */
export async function decideSupportGrant(core: EngineCore, decision: SupportDecision): Promise<SupportGrantOutcome> {
  const { gameId, grantId, actor } = decision;
  const [found] = await core.db.select({ playerId: supportGrants.playerId }).from(supportGrants).where(and(eq(supportGrants.gameId, gameId), eq(supportGrants.grantId, grantId)));
  if (!found) throw new OffersError("support-grant-not-found", grantId);
  const target: SupportGrantStatus = decision.decision === "approve" ? "granted" : "rejected";
  return withPlayerTransaction(core, gameId, found.playerId, async (unit) => {
    const now = unit.now;
    const [decided] = await unit.tx
      .update(supportGrants)
      .set({ status: target, decidedBy: actor, decisionReason: decision.reason ?? null, decidedAt: now, updatedAt: now })
      .where(
        and(
          eq(supportGrants.gameId, gameId),
          eq(supportGrants.grantId, grantId),
          eq(supportGrants.status, "pending"),
          gt(supportGrants.expiresAt, now),
          sql`lower(${supportGrants.requestedBy}) <> lower(${actor})`,
        ),
      )
      .returning();
    if (decided) {
      if (target === "granted") await grantIn(unit, decided, actor);
      return { grant: decided, replayed: false };
    }
    const [current] = await unit.tx.select().from(supportGrants).where(and(eq(supportGrants.gameId, gameId), eq(supportGrants.grantId, grantId)));
    if (!current) throw new OffersError("support-grant-not-found", grantId);
    if (current.status === target && current.decidedBy?.toLowerCase() === actor.toLowerCase()) return { grant: current, replayed: true };
    const refusal = decisionRefusal(current, actor, now);
    if (refusal === "same-person") throw new OffersError("four-eyes-same-person", "a support grant is approved or rejected by someone other than the person who asked for it");
    if (refusal === "expired") throw new OffersError("support-grant-expired", `${grantId} waited too long for a decision; ask again if it is still due`);
    throw new OffersError("support-grant-decided", `${grantId} is already ${statusOf(current, now)}`);
  });
}

/** The grant's status as people read it: a pending grant past its time is expired, whether or not the sweep has written it yet. */
export function statusOf(row: Pick<SupportGrantRow, "status" | "expiresAt">, now: Date): SupportGrantStatus {
  return isStale(row, now) ? "expired" : row.status;
}

export function toSupportGrant(row: SupportGrantRow, now: Date): SupportGrant {
  return {
    grantId: row.grantId,
    gameId: publicGameId(row.gameId),
    playerId: row.playerId,
    kind: row.reward.kind,
    rewardId: row.reward.rewardId,
    name: row.reward.name,
    amount: row.reward.amount,
    reason: row.reason,
    requestedBy: row.requestedBy,
    status: statusOf(row, now),
    approvalRequired: row.approvalRequired,
    decidedBy: row.decidedBy,
    decisionReason: row.decisionReason,
    requestedAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/** Pending and not stale: what waits for a second person. */
const waiting = (now: Date) => and(eq(supportGrants.status, "pending"), gt(supportGrants.expiresAt, now));

/** A game environment's support grants, newest first (optionally of one status or player), and how many wait for approval. */
export async function listSupportGrants(
  db: OffersDatabase,
  gameId: string,
  now: Date,
  filter: { status?: SupportGrantStatus; playerId?: string; limit: number },
): Promise<{ grants: SupportGrantRow[]; pending: number }> {
  const byStatus =
    filter.status === undefined
      ? undefined
      : filter.status === "pending"
        ? waiting(now)
        : filter.status === "expired"
          ? or(eq(supportGrants.status, "expired"), and(eq(supportGrants.status, "pending"), lte(supportGrants.expiresAt, now)))
          : eq(supportGrants.status, filter.status);
  const grants = await db
    .select()
    .from(supportGrants)
    .where(and(eq(supportGrants.gameId, gameId), filter.playerId === undefined ? undefined : eq(supportGrants.playerId, filter.playerId), byStatus))
    .orderBy(desc(supportGrants.createdAt), desc(supportGrants.grantId))
    .limit(filter.limit);
  const [pending] = await db.select({ n: count() }).from(supportGrants).where(and(eq(supportGrants.gameId, gameId), waiting(now)));
  return { grants, pending: Number(pending?.n ?? 0) };
}

/** The sweep: stores `expired` on pending grants past their time (reads already show them expired). */
export async function expireSupportGrants(core: EngineCore): Promise<number> {
  const now = core.clock.now();
  const expired = await core.db
    .update(supportGrants)
    .set({ status: "expired", decidedAt: now, updatedAt: now })
    .where(and(eq(supportGrants.status, "pending"), lte(supportGrants.expiresAt, now)))
    .returning({ grantId: supportGrants.grantId });
  return expired.length;
}
