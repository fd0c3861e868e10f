/**
 * Read models of the admin API that the portal's support dashboard uses: games, player search and
 * a player's whole state (offers with their event history, snapshot, currencies, ledger, referrals).
 */
import { and, asc, count, eq, ilike, or } from "drizzle-orm";
import type { OffersDatabase } from "./db";
import { currencies, games, offerEvents, offerInstances, players, referrals, rewardLedger } from "./db/schema";
import type { OffersEngine } from "./engine";
import { snapshotOf, toOffer } from "./engine";
import { playerDataOf } from "./engine/views";
import { listSupportGrants, toSupportGrant } from "./engine/support-grants";
import { environmentOf, publicGameId, type Environment } from "./environments";
import type { AdminGame, AdminPlayerState } from "./contract";

/** Every game by its public id, with the players and currencies of one environment. */
export async function listGames(db: OffersDatabase, environment: Environment = "live"): Promise<AdminGame[]> {
  const rows = (await db.select().from(games).orderBy(asc(games.gameId))).filter((g) => environmentOf(g.gameId) === environment);
  const counts = await db.select({ gameId: players.gameId, n: count() }).from(players).groupBy(players.gameId);
  const allCurrencies = await db.select().from(currencies).orderBy(asc(currencies.currencyId));
  return rows.map((g) => ({
    gameId: publicGameId(g.gameId),
    name: g.name,
    maxOfferSlots: g.maxOfferSlots,
    players: Number(counts.find((c) => c.gameId === g.gameId)?.n ?? 0),
    currencies: allCurrencies.filter((c) => c.gameId === g.gameId).map((c) => ({ id: c.currencyId, name: c.name, image: c.image })),
  }));
}

/** Players whose id or username contains the query (case-insensitive), newest activity first. */
export async function findPlayers(db: OffersDatabase, gameId: string, query: string, limit = 20) {
  const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .select({ playerId: players.playerId, username: players.username, updatedAt: players.updatedAt })
    .from(players)
    .where(and(eq(players.gameId, gameId), query ? or(ilike(players.playerId, pattern), ilike(players.username, pattern)) : undefined))
    .orderBy(asc(players.playerId))
    .limit(limit);
  return rows.map((r) => ({ ...r, updatedAt: r.updatedAt.toISOString() }));
}

/**
 * The player's whole state as stored, or null when the game has no such player. A read only: a
 * support person looking must not change what the player gets, so nothing is settled, surfaced or
 * viewed (no campaigns fetch). An offer past its deadline shows its stored status, with its
 * expiresAt, until the player's next read or the periodic sweep expires it.
 */
export async function playerState(
  engine: OffersEngine,
  gameId: string,
  playerId: string,
  connected: boolean,
): Promise<AdminPlayerState | null> {
  const db = engine.db;
  const [player] = await db
    .select()
    .from(players)
    .where(and(eq(players.gameId, gameId), eq(players.playerId, playerId)));
  if (!player) return null;
  const instances = await db
    .select()
    .from(offerInstances)
    .where(and(eq(offerInstances.gameId, gameId), eq(offerInstances.playerId, playerId)))
    .orderBy(asc(offerInstances.createdAt), asc(offerInstances.instanceId));
  const snapshot = snapshotOf(player);
  const { currencies: gameCurrencies } = await engine.gameSettings(gameId);
  const events = await db
    .select()
    .from(offerEvents)
    .where(and(eq(offerEvents.gameId, gameId), eq(offerEvents.playerId, playerId)))
    .orderBy(asc(offerEvents.seq));
  const ledger = await db
    .select()
    .from(rewardLedger)
    .where(and(eq(rewardLedger.gameId, gameId), eq(rewardLedger.playerId, playerId)))
    .orderBy(asc(rewardLedger.id));
  const playerReferrals = await db
    .select()
    .from(referrals)
    .where(and(eq(referrals.gameId, gameId), or(eq(referrals.referrerId, playerId), eq(referrals.refereeId, playerId))))
    .orderBy(asc(referrals.createdAt));
  const now = engine.clock.now();
  const { grants } = await listSupportGrants(db, gameId, now, { playerId, limit: 50 });
  return {
    gameId: publicGameId(gameId),
    playerId,
    snapshot,
    playerData: playerDataOf(snapshot, gameCurrencies),
    offers: instances.map(toOffer).map((offer) => ({
      ...offer,
      events: events
        .filter((e) => e.instanceId === offer.instanceId)
        .map((e) => ({ seq: e.seq, type: e.type, fromStatus: e.fromStatus, toStatus: e.toStatus, cause: e.cause, at: e.at.toISOString(), actor: e.actor, reason: e.reason })),
    })),
    ledger: ledger.map((l) => ({ sourceKind: l.sourceKind, sourceId: l.sourceId, rewards: l.rewards, grantedAt: l.grantedAt.toISOString() })),
    referrals: playerReferrals.map((r) => ({
      instanceId: r.instanceId,
      referrerId: r.referrerId,
      refereeId: r.refereeId,
      status: r.status,
      rewards: r.rewards,
    })),
    supportGrants: grants.map((row) => toSupportGrant(row, now)),
    connected,
  };
}
