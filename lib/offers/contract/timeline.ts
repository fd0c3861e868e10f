/**
 * A player's timeline through the admin API: one chronological list, newest first, of what happened to
 * the player — offer transitions (with the rule or person that caused them), rewards granted, their
 * webhook deliveries with every attempt, support grants requested and decided, and the player's activity
 * (snapshots pushed by the game server, event streams opened and closed). Paged by a cursor;
 * filterable by kind.
 */
import { z } from "zod";
import { RewardEventKind, RewardSource } from "./reward-events";
import { Reward } from "./rewards";
import { Timestamp } from "./scalars";

export const TIMELINE_KINDS = ["offer", "reward", "delivery", "support", "activity"] as const;
export const TimelineKind = z.enum(TIMELINE_KINDS);
export type TimelineKind = z.infer<typeof TimelineKind>;

export const TIMELINE_PAGE_MAX = 200;
/** A cursor is short base64url text; anything longer was not made by this API. */
const CURSOR_MAX = 300;

export const TimelineQuery = z.object({
  /** Comma-separated kinds to keep (offer, reward, delivery, support, activity); absent: all of them. */
  kinds: z
    .string()
    .max(100)
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text.trim() === "") return [...TIMELINE_KINDS];
      const kinds = [...new Set(text.split(",").map((k) => k.trim()))];
      const unknown = kinds.filter((k) => !(TIMELINE_KINDS as readonly string[]).includes(k));
      if (unknown.length) ctx.addIssue({ code: "custom", message: `unknown kind ${unknown.map((k) => JSON.stringify(k.slice(0, 20))).join(", ")}: the kinds are ${TIMELINE_KINDS.join(", ")}` });
      return kinds as TimelineKind[];
    })
    .describe("Comma-separated kinds to keep: offer, reward, delivery, support, activity. Absent: all."),
  /** The `next` of the page before: entries older than its last one. */
  before: z.string().min(1).max(CURSOR_MAX).regex(/^[A-Za-z0-9_-]+$/, "a cursor is the `next` of a page").optional(),
  limit: z.coerce.number().int().min(1).max(TIMELINE_PAGE_MAX).default(50),
});
export type TimelineQuery = z.infer<typeof TimelineQuery>;

const base = { at: Timestamp, id: z.string().describe("Stable within its kind; with kind and at, the entry's place in the timeline.") };

export const TimelineOfferEntry = z.object({
  kind: z.literal("offer"),
  ...base,
  instanceId: z.string(),
  offerId: z.string(),
  offerName: z.string(),
  /** The transition: surfaced, queued, viewed, claimable, claimed, expired, revoked, extended. */
  type: z.string(),
  from: z.string().nullable(),
  to: z.string(),
  /** What caused it: rule (the definition's audience), assign (a game server), snapshot, claim, expiry, support, … */
  cause: z.string(),
  /** For cause rule: the definition's version whose rule assigned the offer. */
  ruleVersion: z.number().nullable(),
  /** For cause support: who acted, and why. */
  actor: z.string().nullable(),
  reason: z.string().nullable(),
});

export const TimelineRewardEntry = z.object({
  kind: z.literal("reward"),
  ...base,
  /** The reward.granted event's id: the webhook-id of its deliveries. */
  eventId: z.string(),
  sourceKind: RewardEventKind,
  source: RewardSource,
  offerId: z.string().nullable(),
  variantId: z.string().nullable(),
  rewards: z.array(Reward),
  actor: z.string().nullable(),
  approvedBy: z.string().nullable(),
  reason: z.string().nullable(),
});

export const TimelineAttempt = z.object({ at: Timestamp, statusCode: z.number().nullable(), error: z.string().nullable(), latencyMs: z.number() });

export const TimelineDeliveryEntry = z.object({
  kind: z.literal("delivery"),
  ...base,
  deliveryId: z.number(),
  endpointId: z.string(),
  /** The webhook-id (the reward event's id). */
  messageId: z.string(),
  status: z.string(),
  attempts: z.array(TimelineAttempt).describe("Every attempt kept (the last 50), oldest first."),
});

export const TimelineSupportEntry = z.object({
  kind: z.literal("support"),
  ...base,
  grantId: z.string(),
  /** requested: waits for a second person; granted: below the thresholds, at once; approved, rejected, expired: the decision. */
  action: z.enum(["requested", "granted", "approved", "rejected", "expired"]),
  by: z.string().nullable(),
  reason: z.string().nullable(),
  reward: Reward,
});

export const PLAYER_ACTIVITIES = ["snapshot", "stream-opened", "stream-closed"] as const;
export const PlayerActivity = z.enum(PLAYER_ACTIVITIES);
export type PlayerActivity = z.infer<typeof PlayerActivity>;

export const TimelineActivityEntry = z.object({
  kind: z.literal("activity"),
  ...base,
  /** snapshot: the game server pushed the player's snapshot; stream-opened, stream-closed: the player's event stream. */
  activity: PlayerActivity,
  /** snapshot: top-level fields pushed and the push's size in bytes (JSON as parsed). */
  fields: z.number().nullable(),
  bytes: z.number().nullable(),
  /** Streams: the instance of the service that held the stream. */
  instance: z.string().nullable(),
  /** stream-opened: the client resumed with Last-Event-ID. */
  resumed: z.boolean().nullable(),
  /** stream-closed: how long the stream was open, in milliseconds, and why it closed. */
  openMs: z.number().nullable(),
  reason: z.string().nullable(),
});

export const TimelineEntry = z
  .discriminatedUnion("kind", [TimelineOfferEntry, TimelineRewardEntry, TimelineDeliveryEntry, TimelineSupportEntry, TimelineActivityEntry])
  .meta({ id: "TimelineEntry" });
export type TimelineEntry = z.infer<typeof TimelineEntry>;

export const TimelinePage = z.object({
  entries: z.array(TimelineEntry),
  /** Pass as `before` for the next (older) page; null on the last page. */
  next: z.string().nullable(),
});
export type TimelinePage = z.infer<typeof TimelinePage>;
