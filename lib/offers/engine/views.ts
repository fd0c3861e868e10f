/**
 * Rows to the API's shapes (offers, definitions, referrals, snapshots, player data, events). Rows
 * carry the tenant (a game's environment, ../environments); the shapes name the game by its public id.
 */
import type { currencies, offerDefinitions, referrals } from "../db/schema";
import type { Offer, OfferDefinition, OfferStatus, PlayerData, PlayerSnapshot, PlayerSnapshotCore, Referral } from "../contract";
import { environmentOf, publicGameId } from "../environments";
import { opaqueEtag } from "../preconditions";
import type { InstanceRow, OfferEvent, OfferEventType, PlayerRow } from "./types";

export const iso = (d: Date) => d.toISOString();

export function toOffer(row: InstanceRow): Offer {
  const hasConditions = !!row.completionConditions && row.completionConditions.length > 0;
  return {
    offerId: row.offerId,
    instanceId: row.instanceId,
    playerId: row.playerId,
    gameId: publicGameId(row.gameId),
    name: row.name,
    description: row.description,
    ...(row.image ? { image: row.image } : {}),
    status: row.status,
    realTime: row.realTime,
    rewards: row.rewards,
    ...(hasConditions ? { completionConditions: row.completionConditions!, completionTrackers: row.completionTrackers } : {}),
    createdAt: iso(row.createdAt),
    expiresAt: iso(row.expiresAt),
  };
}

/**
 * A definition's ETag: its game (environment included), id, creation time and version. The creation time
 * keeps a definition written again after its rows were removed (a database restored, a test environment
 * emptied) from repeating a tag an editor still holds.
 */
export function definitionEtag(row: Pick<typeof offerDefinitions.$inferSelect, "gameId" | "offerId" | "createdAt" | "version">): string {
  return opaqueEtag("definition", row.gameId, row.offerId, row.createdAt.getTime(), row.version);
}

export function toDefinition(row: typeof offerDefinitions.$inferSelect): OfferDefinition {
  return {
    gameId: publicGameId(row.gameId),
    offerId: row.offerId,
    name: row.name,
    description: row.description,
    ...(row.image ? { image: row.image } : {}),
    rewards: row.rewards,
    ...(row.completionConditions ? { completionConditions: row.completionConditions } : {}),
    realTime: row.realTime,
    durationSeconds: row.durationSeconds,
    priority: row.priority,
    status: row.status,
    version: row.version,
    etag: definitionEtag(row),
    audience: row.audience ?? null,
    schedule: { startsAt: row.startsAt ? iso(row.startsAt) : null, endsAt: row.endsAt ? iso(row.endsAt) : null },
    limits: { maxActivationsPerPlayer: row.maxActivationsPerPlayer, cooldownSeconds: row.cooldownSeconds, maxClaimsTotal: row.maxClaimsTotal ?? null },
    rollout: row.rollout,
    variants: row.variants ?? null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function toReferral(row: typeof referrals.$inferSelect): Referral {
  return {
    instanceId: row.instanceId,
    gameId: publicGameId(row.gameId),
    referrerId: row.referrerId,
    refereeId: row.refereeId,
    rewards: row.rewards,
    status: row.status,
    createdAt: iso(row.createdAt),
  };
}

/** The domain event of a transition of `row` (the offer after it). */
export function offerEvent(seq: number, row: InstanceRow, from: OfferStatus | null, type: OfferEventType, cause: string, at: string, actor: string | null = null): OfferEvent {
  return { seq, type, gameId: row.gameId, playerId: row.playerId, instanceId: row.instanceId, fromStatus: from, toStatus: row.status, cause, at, actor, offer: toOffer(row) };
}

/**
 * The snapshot's `_id`: unique per game, environment and player. A live player's is `<gameId>:<playerId>`, a test
 * player's `<gameId>:test:<playerId>`; identifiers hold no ":", so neither form can be read as the other. (The
 * tenant itself never leaves the service.)
 */
function snapshotId(tenant: string, playerId: string): string {
  const gameId = publicGameId(tenant);
  return environmentOf(tenant) === "test" ? `${gameId}:test:${playerId}` : `${gameId}:${playerId}`;
}

function snapshotCoreOf(row: PlayerRow): PlayerSnapshotCore {
  const gameId = publicGameId(row.gameId);
  return {
    _id: snapshotId(row.gameId, row.playerId),
    gameId,
    playerId: row.playerId,
    username: row.username,
    daysInGame: row.daysInGame,
    loginStreak: row.loginStreak,
    trustScore: row.trustScore,
  };
}

export function snapshotOf(row: PlayerRow): PlayerSnapshot {
  return { ...snapshotCoreOf(row), currencies: row.currencies, levels: row.levels };
}

export function emptySnapshot(tenant: string, playerId: string): PlayerSnapshot {
  const gameId = publicGameId(tenant);
  return { _id: snapshotId(tenant, playerId), gameId, playerId, username: "", daysInGame: 0, loginStreak: 0, trustScore: 0, currencies: {}, levels: {} };
}

/** The seven-field snapshot nested in Player. */
export function coreOf(snapshot: PlayerSnapshot): PlayerSnapshotCore {
  const { _id, gameId, playerId, username, daysInGame, loginStreak, trustScore } = snapshot;
  return { _id, gameId, playerId, username, daysInGame, loginStreak, trustScore };
}

/** Every currency of the game with the player's balance, plus currencies the snapshot has that the game did not declare. */
export function playerDataOf(snapshot: PlayerSnapshot, gameCurrencies: Array<typeof currencies.$inferSelect>): PlayerData {
  const out: PlayerData["currencies"] = {};
  for (const c of gameCurrencies) {
    out[c.currencyId] = { id: c.currencyId, name: c.name, balance: snapshot.currencies[c.currencyId]?.balance ?? 0, image: c.image };
  }
  for (const [id, value] of Object.entries(snapshot.currencies)) {
    if (!out[id]) out[id] = { id, name: id, balance: value.balance, image: "" };
  }
  return { gameId: snapshot.gameId, playerId: snapshot.playerId, currencies: out };
}
