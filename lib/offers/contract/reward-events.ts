/** The reward.granted event (webhook body and ledger feed), the test event, and the feed. */
import { z } from "zod";
import { Environment } from "../environments";
import { Reward } from "./rewards";
import { Timestamp } from "./scalars";

/** Who caused the grant: a game client (JWT), a game server (API key), the player on the rewards page, or support staff (a compensation). */
export const RewardSource = z.enum(["client", "server", "dashboard", "support"]);
export type RewardSource = z.infer<typeof RewardSource>;

/** What was granted from: a claimed offer or referral, or a support grant (a compensation, no claim). */
export const RewardEventKind = z.enum(["offer", "referral", "support"]);
export type RewardEventKind = z.infer<typeof RewardEventKind>;

export const RewardGrantedData = z.object({
  gameId: z.string(),
  /** The game's environment the claim was made in: a test credential's claims say test. */
  environment: Environment,
  playerId: z.string(),
  kind: RewardEventKind,
  /** The offer instance or referral that was claimed (the claim's instanceId); for kind support, the support grant's id. */
  instanceId: z.string(),
  /** The offer definition (kind offer). */
  offerId: z.string().optional(),
  /** The reward variant the player drew, when the definition has variants. */
  variant: z.string().optional(),
  rewards: z.array(Reward),
  source: RewardSource,
  /** Source support: who granted it (the portal user, or `game-server:<clientId>` for a game server's own grant), who approved it when a second person had to, and why. */
  actor: z.string().optional(),
  approvedBy: z.string().optional(),
  reason: z.string().optional(),
  grantedAt: Timestamp,
});
export type RewardGrantedData = z.infer<typeof RewardGrantedData>;

/**
 * The event a game server receives: in a webhook's body (Standard Webhooks: `webhook-id` equals
 * `id`) and in the ledger feed. `id` is stable: de-duplicate on it.
 */
export const RewardGrantedEvent = z
  .object({ id: z.string(), type: z.literal("reward.granted"), timestamp: Timestamp, data: RewardGrantedData })
  .meta({ id: "RewardGrantedEvent" });
export type RewardGrantedEvent = z.infer<typeof RewardGrantedEvent>;

/** The body of a test event (sent to one endpoint from the portal or the API); not in the feed. */
export const WebhookTestEvent = z
  .object({
    id: z.string(),
    type: z.literal("webhook.test"),
    timestamp: Timestamp,
    data: z.object({ gameId: z.string(), environment: Environment, endpointId: z.string(), message: z.string() }),
  })
  .meta({ id: "WebhookTestEvent" });
export type WebhookTestEvent = z.infer<typeof WebhookTestEvent>;

export const RewardFeedQuery = z.object({
  after: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("The `next` of the previous page; absent: from the first event. Opaque: store it as it is."),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type RewardFeedQuery = z.infer<typeof RewardFeedQuery>;

export const RewardFeedResponse = z.object({
  /** In commit order. */
  events: z.array(RewardGrantedEvent),
  /** Pass as `after` to read on; the same cursor again when nothing new was committed yet. */
  next: z.string(),
  /** More events are ready now (the page was full). */
  hasMore: z.boolean(),
});
export type RewardFeedResponse = z.infer<typeof RewardFeedResponse>;
