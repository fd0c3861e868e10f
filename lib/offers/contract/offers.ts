/** Offers as players see them: the client view, the campaigns fetch and refresh, explicit assignment, the event stream. */
import { z } from "zod";
import { Player, PlayerData, PlayerSnapshot } from "./players";
import { CompletionCondition, Reward } from "./rewards";
import { ExternalId, Timestamp } from "./scalars";

export const OfferStatus = z.enum(["inQueue", "surfaced", "viewed", "claimable", "claimed", "expired"]);
export type OfferStatus = z.infer<typeof OfferStatus>;

/** Progress per condition kind (`kind:id` when an offer has two conditions of one kind). */
export const CompletionTrackers = z.record(z.string(), z.number());
export type CompletionTrackers = z.infer<typeof CompletionTrackers>;

/** Offer, client view (interface "Offer (client view)"). */
export const Offer = z.object({
  offerId: z.string(),
  instanceId: z.string(),
  playerId: z.string(),
  gameId: z.string(),
  name: z.string(),
  description: z.string(),
  image: z.string().optional(),
  status: OfferStatus,
  /** Configuration flag: only realTime offers are pushed over the event stream. Always sent by this service. */
  realTime: z.boolean().optional(),
  rewards: z.array(Reward),
  completionConditions: z.array(CompletionCondition).optional(),
  completionTrackers: CompletionTrackers.optional(),
  createdAt: Timestamp,
  expiresAt: Timestamp,
});
export type Offer = z.infer<typeof Offer>;

export const ViewingCampaigns = z.boolean().nullable().optional();

export const ClientCampaignsRequest = z.object({ viewingCampaigns: ViewingCampaigns });
export type ClientCampaignsRequest = z.infer<typeof ClientCampaignsRequest>;
export const ClientCampaignsResponse = z.object({
  player: Player,
  offers: z.array(Offer),
  snapshot: PlayerSnapshot,
  playerData: PlayerData,
});
export type ClientCampaignsResponse = z.infer<typeof ClientCampaignsResponse>;

export const ServerCampaignsRefreshRequest = z.object({ playerId: ExternalId, viewingCampaigns: ViewingCampaigns });
export type ServerCampaignsRefreshRequest = z.infer<typeof ServerCampaignsRefreshRequest>;
/** Names the snapshot playerSnapshot; it has no field named snapshot. */
export const ServerCampaignsRefreshResponse = z.object({
  player: Player,
  offers: z.array(Offer),
  token: z.string(),
  gameId: z.string(),
  playerSnapshot: PlayerSnapshot,
  playerData: PlayerData,
});
export type ServerCampaignsRefreshResponse = z.infer<typeof ServerCampaignsRefreshResponse>;

export const AssignOfferRequest = z.object({ playerId: ExternalId, offerId: ExternalId });
export type AssignOfferRequest = z.infer<typeof AssignOfferRequest>;

/** GET /v1/sse/connect's body as the document shows it: text, one event per blank-line-ended group. */
export const EventStreamText = z.string().meta({
  description:
    "Server-sent events (UTF-8). `event: offer_surfaced` with an `id:` (per-player sequence; send it back as Last-Event-ID) and " +
    "`data:` one JSON object `{\"offer\": Offer}` (status surfaced); `:heartbeat` comment lines every 30 s; " +
    "`event: replaced` (id `replaced`, data `{\"message\":\"stream-replaced\"}`) before the server closes a stream a newer one replaced.",
  examples: ['id: 7\nevent: offer_surfaced\ndata: {"offer":{"offerId":"daily-login","instanceId":"…","status":"surfaced","…":"…"}}\n\n:heartbeat\n\n'],
});
