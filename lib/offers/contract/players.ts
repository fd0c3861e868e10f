/** Players: their snapshot (what game servers push) and their data. */
import { z } from "zod";
import { ExternalId, Timestamp } from "./scalars";

export const PlayerSnapshotCore = z.object({
  _id: z.string().describe("Unique per game, environment and player: `<gameId>:<playerId>` live, `<gameId>:test:<playerId>` in the test environment (identifiers hold no `:`)."),
  gameId: z.string(),
  playerId: z.string(),
  username: z.string(),
  daysInGame: z.number(),
  loginStreak: z.number(),
  trustScore: z.number(),
});
export type PlayerSnapshotCore = z.infer<typeof PlayerSnapshotCore>;

export const CurrencyBalance = z.object({
  balance: z.number().finite(),
  in: z.number().finite(),
  out: z.number().finite(),
});
export type CurrencyBalance = z.infer<typeof CurrencyBalance>;

export const LevelValue = z.object({ level: z.number().finite() });

/** Top-level snapshot (IPlayerSnapshot): the seven fields plus currencies and levels. */
export const PlayerSnapshot = PlayerSnapshotCore.extend({
  currencies: z.record(z.string(), CurrencyBalance),
  levels: z.record(z.string(), LevelValue),
});
export type PlayerSnapshot = z.infer<typeof PlayerSnapshot>;

export const PlayerDataCurrency = z.object({
  id: z.string(),
  name: z.string(),
  balance: z.number(),
  image: z.string(),
});

export const PlayerData = z.object({
  gameId: z.string(),
  playerId: z.string(),
  currencies: z.record(z.string(), PlayerDataCurrency),
});
export type PlayerData = z.infer<typeof PlayerData>;

/** IClientPlayer: the snapshot nested here carries only the seven core fields. */
export const Player = z.object({
  snapshot: PlayerSnapshotCore,
  data: PlayerData,
});
export type Player = z.infer<typeof Player>;

export const SnapshotPushRequest = z.object({
  playerId: ExternalId,
  username: z.string().max(200).optional(),
  daysInGame: z.number().finite().optional(),
  loginStreak: z.number().finite().optional(),
  trustScore: z.number().finite().optional(),
  currencies: z.record(z.string().min(1).max(200), CurrencyBalance).optional(),
  levels: z.record(z.string().min(1).max(200), LevelValue).optional(),
});
export type SnapshotPushRequest = z.infer<typeof SnapshotPushRequest>;
/** The stored snapshot after the push. */
export const SnapshotPushResponse = PlayerSnapshot;

/** Ours: what the player's balances mean, for the rewards page. */
export const ClientBalancesRequest = z.strictObject({}).optional();
export const ClientBalancesResponse = z.object({
  /** When the game last pushed the player's snapshot: `playerData` balances are the game's as of then. */
  snapshotAt: Timestamp,
  /** Amounts per reward id claimed since that snapshot (from the reward ledger): on their way, not yet in a balance. */
  claimedSinceSnapshot: z.record(z.string(), z.number()),
});
export type ClientBalancesResponse = z.infer<typeof ClientBalancesResponse>;
