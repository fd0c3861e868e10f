/** The admin API of the portal's support dashboard, and the games' request budgets. */
import { z } from "zod";
import { Environment } from "../environments";
import { Offer } from "./offers";
import { PlayerData, PlayerSnapshot } from "./players";
import { Reward } from "./rewards";
import { SupportGrant } from "./support";

export const AdminGame = z.object({
  gameId: z.string(),
  name: z.string(),
  maxOfferSlots: z.number(),
  players: z.number(),
  currencies: z.array(z.object({ id: z.string(), name: z.string(), image: z.string() })),
});
export type AdminGame = z.infer<typeof AdminGame>;

/** What support types to find a player: part of an id or a username. */
export const PlayerSearchText = z.string().max(200);
export const PlayerSearchQuery = z.object({ q: PlayerSearchText.default(""), limit: z.coerce.number().int().min(1).max(100).default(20) });

export const AdminPlayerSummary = z.object({
  playerId: z.string(),
  username: z.string(),
  updatedAt: z.string(),
});

export const AdminOfferEvent = z.object({
  seq: z.number(),
  type: z.string(),
  fromStatus: z.string().nullable(),
  toStatus: z.string(),
  cause: z.string(),
  at: z.string(),
  /** For cause support: who acted and why (null otherwise; absent from a service older than support's acts). */
  actor: z.string().nullable().optional(),
  reason: z.string().nullable().optional(),
});

export const AdminPlayerState = z.object({
  gameId: z.string(),
  playerId: z.string(),
  snapshot: PlayerSnapshot,
  playerData: PlayerData,
  offers: z.array(Offer.extend({ events: z.array(AdminOfferEvent) })),
  /** What was granted: sourceKind offer or referral (a claim), or support (a support grant; sourceId is its grantId). */
  ledger: z.array(z.object({ sourceKind: z.string(), sourceId: z.string(), rewards: z.array(Reward), grantedAt: z.string() })),
  /** The player's support grants, newest first (the last 50): granted, pending approval, rejected or expired, each with who and why. */
  supportGrants: z.array(SupportGrant),
  referrals: z.array(
    z.object({ instanceId: z.string(), referrerId: z.string(), refereeId: z.string(), status: z.string(), rewards: z.array(Reward) }),
  ),
  /** Whether the player holds a live event stream now. */
  connected: z.boolean(),
});
export type AdminPlayerState = z.infer<typeof AdminPlayerState>;

/** The environment of the game an admin call is about (the path names the game by its public id). */
export const AdminEnvironmentHeader = z
  .object({ "x-offers-environment": Environment.optional().describe("live (default) or test: the game environment this call reads and changes") })
  .loose();

/** A budget in requests per minute: 0 = unlimited. */
const PerMinute = z.number().int().min(0).max(10_000_000);

/** A game environment's request budgets: what applies, and the game's own values (null = the service's default). */
export const AdminRateLimits = z.object({
  /** Requests per minute of each player's game client (JWT routes and the event stream); 0 = unlimited. */
  clientPerMinute: PerMinute,
  /** Requests per minute of the game's servers together (API-key routes); 0 = unlimited. */
  serverPerMinute: PerMinute,
  /** The game's own values; null = the service's default applies. */
  own: z.object({ clientPerMinute: PerMinute.nullable(), serverPerMinute: PerMinute.nullable() }),
  /** The service's defaults (OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE, OFFERS_RATE_LIMIT_SERVER_PER_MINUTE). */
  defaults: z.object({ clientPerMinute: PerMinute, serverPerMinute: PerMinute }),
});
export type AdminRateLimits = z.infer<typeof AdminRateLimits>;

/** Changes the named budgets: a number sets the game's own value (0 = unlimited), null goes back to the default. */
export const AdminRateLimitsUpdate = z
  .strictObject({ clientPerMinute: PerMinute.nullable().optional(), serverPerMinute: PerMinute.nullable().optional() })
  .refine((body) => body.clientPerMinute !== undefined || body.serverPerMinute !== undefined, { message: "name clientPerMinute, serverPerMinute or both" });
export type AdminRateLimitsUpdate = z.infer<typeof AdminRateLimitsUpdate>;
