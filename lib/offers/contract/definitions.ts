/** Offer definitions: what an offer is, who it surfaces for by itself, when and how often. */
import { z } from "zod";
import { AudienceRule } from "./audience-rule";
import { CompletionCondition, Reward } from "./rewards";
import { ExternalId, ImageUrl, Timestamp } from "./scalars";

/** Lifecycle of a definition: only `active` ones surface by themselves; `archived` ones are no longer assigned at all. */
export const DefinitionStatus = z.enum(["draft", "active", "paused", "archived"]);
export type DefinitionStatus = z.infer<typeof DefinitionStatus>;

export const Schedule = z
  .strictObject({
    /** The definition surfaces from here (inclusive); absent: at once. */
    startsAt: Timestamp.nullable().optional(),
    /** … until here (exclusive); absent: no end. */
    endsAt: Timestamp.nullable().optional(),
  })
  .refine((s) => !s.startsAt || !s.endsAt || Date.parse(s.startsAt) < Date.parse(s.endsAt), { message: "endsAt must be after startsAt", path: ["endsAt"] });
export type Schedule = z.infer<typeof Schedule>;

export const Limits = z.strictObject({
  /** How many times one player may be given this offer (activations), default 1. */
  maxActivationsPerPlayer: z.number().int().min(1).max(1_000).default(1),
  /** Seconds after the player's previous activation ended (claimed or expired) before another. */
  cooldownSeconds: z.number().int().min(0).max(366 * 24 * 3600).default(0),
  /** Claims across the game: once assigned-and-not-expired instances reach it, the offer stops surfacing, so claims never exceed it. */
  maxClaimsTotal: z.number().int().min(1).max(1_000_000_000).nullable().optional(),
});
export type Limits = z.infer<typeof Limits>;

/**
 * A reward as live ops or a game server authors it in a definition: an unknown key is refused (a
 * misspelt field would otherwise vanish). Rewards in referrals keep the interface's tolerance.
 */
const AuthoredReward = z.strictObject(Reward.shape);

export const RewardVariant = z.strictObject({
  variantId: ExternalId,
  name: z.string().min(1).max(200).optional(),
  /** Relative weight; a player's variant is drawn once, deterministically, by weight. */
  weight: z.number().finite().positive().max(1_000_000),
  rewards: z.array(AuthoredReward).min(1).max(50),
});
export type RewardVariant = z.infer<typeof RewardVariant>;

const distinctVariants = (variants: RewardVariant[] | null | undefined) => !variants || new Set(variants.map((v) => v.variantId)).size === variants.length;

/**
 * Offer definition as a game server writes it (PUT /v1/offers/definitions/:offerId) and the portal
 * edits it. Strict at every level: `rolout: 10` is refused, not stored as rollout 100.
 */
export const OfferDefinitionInput = z
  .strictObject({
    /** Optional; when present it must equal the path parameter. */
    offerId: ExternalId.optional(),
    name: z.string().min(1).max(200),
    description: z.string().max(2000).default(""),
    image: ImageUrl.optional(),
    /** Required unless variants are given (then the first variant's rewards when absent). */
    rewards: z.array(AuthoredReward).min(1).max(50).optional(),
    completionConditions: z.array(CompletionCondition).max(20).optional(),
    realTime: z.boolean().default(false),
    /** Lifetime from surfacing to expiresAt. */
    durationSeconds: z.number().int().min(1).max(366 * 24 * 3600),
    /** Higher surfaces first from the queue. */
    priority: z.number().int().min(-1_000_000).max(1_000_000).default(0),
    /** Who it surfaces for by itself; absent or null: assigned only explicitly (POST /v1/player/offers/assign). */
    audience: AudienceRule.nullable().optional(),
    schedule: Schedule.optional(),
    limits: Limits.optional(),
    /** Percentage of the audience that gets it (deterministic per player), default 100. */
    rollout: z.number().finite().min(0).max(100).default(100),
    /** 2–4 reward variants with weights; each player gets one, recorded on the instance. */
    variants: z.array(RewardVariant).min(2).max(4).nullable().optional(),
    /** Absent: a new definition is active (game servers) and an existing one keeps its status. */
    status: DefinitionStatus.optional(),
  })
  .refine((d) => (d.rewards?.length ?? 0) > 0 || (d.variants?.length ?? 0) > 0, { message: "rewards are required unless variants are given", path: ["rewards"] })
  .refine((d) => distinctVariants(d.variants), { message: "variant ids must be distinct", path: ["variants"] });
export type OfferDefinitionInput = z.infer<typeof OfferDefinitionInput>;
/** A definition as written before parsing (defaults not yet applied). */
export type OfferDefinitionDraft = z.input<typeof OfferDefinitionInput>;

export const OfferDefinition = z.object({
  gameId: z.string(),
  offerId: z.string(),
  name: z.string(),
  description: z.string(),
  image: z.string().optional(),
  rewards: z.array(Reward),
  completionConditions: z.array(CompletionCondition).optional(),
  realTime: z.boolean(),
  durationSeconds: z.number().int(),
  priority: z.number().int(),
  status: DefinitionStatus,
  /** Revision: every change (content or status) adds one; automatic assignments record it. */
  version: z.number().int(),
  etag: z.string().describe("The definition's ETag (opaque; also the ETag header): send it as If-Match to change it"),
  audience: AudienceRule.nullable(),
  schedule: z.object({ startsAt: Timestamp.nullable(), endsAt: Timestamp.nullable() }),
  limits: z.object({ maxActivationsPerPlayer: z.number().int(), cooldownSeconds: z.number().int(), maxClaimsTotal: z.number().int().nullable() }),
  rollout: z.number(),
  variants: z.array(RewardVariant).nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type OfferDefinition = z.infer<typeof OfferDefinition>;

export const OfferDefinitionParams = z.object({ offerId: ExternalId });
