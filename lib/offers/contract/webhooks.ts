/** Webhook endpoints of a game, the deliveries to them, their lag and replays. */
import { z } from "zod";
import { Reward } from "./rewards";
import { Identifier, Timestamp } from "./scalars";

export const WebhookEventType = z.enum(["reward.granted"]);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** http or https only; whether private and loopback addresses are allowed is a setting of the service. */
export const WebhookUrl = z
  .url({ protocol: /^https?$/, error: (issue) => (issue.code === "invalid_format" ? "must be an http:// or https:// URL" : undefined) })
  .max(2048, { error: "must be at most 2,048 characters" })
  // Credentials in the URL would be stored and shown back in lists and the delivery log: deliveries are signed instead.
  .refine((url) => !URL.parse(url)?.username && !URL.parse(url)?.password, { error: "must not carry a user name or password (user:pass@); verify the signature instead" })
  .describe(
    "http(s) URL that receives the events, at most 2,048 characters, without user name or password. In production, loopback, private and other non-public addresses are refused (OFFERS_WEBHOOK_ALLOW_PRIVATE).",
  );

/** What an endpoint is for, as people read it in lists. */
export const WebhookDescription = z.string().max(500);

export const WebhookEndpointInput = z.strictObject({
  url: WebhookUrl,
  description: WebhookDescription.default(""),
  eventTypes: z.array(WebhookEventType).min(1).max(10).default(["reward.granted"]),
  enabled: z.boolean().default(true),
});
export type WebhookEndpointInput = z.infer<typeof WebhookEndpointInput>;
export type WebhookEndpointDraft = z.input<typeof WebhookEndpointInput>;

export const WebhookEndpointPatch = z
  .strictObject({
    url: WebhookUrl.optional(),
    description: WebhookDescription.optional(),
    eventTypes: z.array(WebhookEventType).min(1).max(10).optional(),
    /** false: nothing is sent to it (its pending deliveries wait); true again: they resume. */
    enabled: z.boolean().optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: "name at least one of url, description, eventTypes, enabled" });
export type WebhookEndpointPatch = z.infer<typeof WebhookEndpointPatch>;

export const WebhookEndpointParams = z.object({ endpointId: Identifier });

export const WebhookEndpoint = z.object({
  endpointId: z.string(),
  gameId: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(WebhookEventType),
  enabled: z.boolean(),
  /** Until then the previous secret (before the last rotation) signs too: a second `v1,` signature. */
  previousSecretExpiresAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  etag: z.string().describe("The endpoint's ETag (opaque; also the ETag header of a single endpoint): send it as If-Match to change, rotate or delete it"),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** Answered once, when the endpoint is created: the signing secret is not shown again. */
export const WebhookEndpointCreated = WebhookEndpoint.extend({
  secret: z.string().describe("The signing secret (whsec_…), for the standardwebhooks package or any of its ports. Shown once."),
});
export type WebhookEndpointCreated = z.infer<typeof WebhookEndpointCreated>;

export const WebhookSecretRotated = z.object({
  endpointId: z.string(),
  secret: z.string().describe("The new signing secret (whsec_…). Shown once."),
  previousSecretExpiresAt: Timestamp.describe("Until then, deliveries carry a signature with the previous secret too."),
  etag: z.string().describe("The endpoint's ETag after the rotation"),
});
export type WebhookSecretRotated = z.infer<typeof WebhookSecretRotated>;

export const WebhookTestSent = z.object({ messageId: z.string(), deliveryId: z.number().int() });
export type WebhookTestSent = z.infer<typeof WebhookTestSent>;

export const WebhookEndpointList = z.object({ endpoints: z.array(WebhookEndpoint) });

export const DeliveryStatus = z.enum(["pending", "delivered", "failed"]);
/** The body of an action that takes none: absent, null or `{}` (some clients send null for "nothing"); any key is refused. */
export const EmptyBody = z.strictObject({}).nullish();
/** A delivery's id (a serial number), as a path or query parameter. */
export const DeliveryId = z.coerce.number({ error: "a delivery id is a whole number" }).int("a delivery id is a whole number").positive().max(Number.MAX_SAFE_INTEGER);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

export const WebhookAttempt = z.object({
  at: Timestamp,
  /** The receiver's status; null when there was no answer (see error). */
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  latencyMs: z.number().int(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

/** One event to one endpoint, with every attempt (the portal's delivery log). */
export const WebhookDelivery = z.object({
  deliveryId: z.number().int(),
  endpointId: z.string(),
  url: z.string(),
  messageId: z.string(),
  eventType: z.string(),
  status: DeliveryStatus,
  /** Who and what, for the log (reward events). */
  playerId: z.string().nullable(),
  rewards: z.array(Reward).nullable(),
  attempts: z.number().int(),
  nextAttemptAt: Timestamp.nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastLatencyMs: z.number().int().nullable(),
  eventAt: Timestamp,
  deliveredAt: Timestamp.nullable(),
  failedAt: Timestamp.nullable(),
  attemptLog: z.array(WebhookAttempt),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryQuery = z.object({
  status: DeliveryStatus.optional(),
  endpointId: Identifier.optional(),
  /** Deliveries of this player's reward events only. */
  playerId: Identifier.optional(),
  /** Deliveries older than this id (the previous page's nextBefore). */
  before: DeliveryId.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type WebhookDeliveryQuery = z.infer<typeof WebhookDeliveryQuery>;

export const WebhookDeliveryPage = z.object({ deliveries: z.array(WebhookDelivery), nextBefore: z.number().int().nullable() });
export type WebhookDeliveryPage = z.infer<typeof WebhookDeliveryPage>;

/** How far behind delivery is (one game, or every game on /health). */
export const DeliveryStats = z.object({
  /** Age in seconds of the oldest event not yet delivered to an enabled endpoint (0 when none waits). */
  lagSeconds: z.number(),
  oldestUndeliveredAt: Timestamp.nullable(),
  /** Deliveries waiting for their first attempt or a retry. */
  pending: z.number().int(),
  /** Dead letters: deliveries that failed every attempt (replay them from the portal, or POST /v1/webhooks/replay). */
  failed: z.number().int(),
});
export type DeliveryStats = z.infer<typeof DeliveryStats>;

export const AdminWebhooks = z.object({ endpoints: z.array(WebhookEndpoint), stats: DeliveryStats });
export type AdminWebhooks = z.infer<typeof AdminWebhooks>;

export const WebhookReplayRequest = z
  .strictObject({
    /** Failed deliveries whose event happened in [from, to). */
    from: Timestamp,
    to: Timestamp,
    endpointId: Identifier.optional(),
  })
  .refine((r) => Date.parse(r.from) < Date.parse(r.to), { message: "to must be after from", path: ["to"] });
export type WebhookReplayRequest = z.infer<typeof WebhookReplayRequest>;

export const WebhookReplayed = z.object({ replayed: z.number().int() });
export type WebhookReplayed = z.infer<typeof WebhookReplayed>;
