/**
 * Every shape of the offers API, one zod schema each; types are z.infer of these.
 * The Fastify routes, the OpenAPI document and the typed client all use these same schemas.
 * Field names follow spec/interface.md exactly; shapes the interface leaves open follow DESIGN.
 */
import { z } from "zod";
import { Environment } from "./environments";
import { AUDIENCE_FIELD_RULE, AUDIENCE_OPS, audienceIssues, type AudienceRule as AudienceRuleValue } from "./targeting/audience";

export { Environment, ENVIRONMENTS } from "./environments";

// The rule grammar's helpers travel with the contract: the portal's audience builder validates,
// describes and explains rules exactly as the service does.
export {
  AUDIENCE_FIELD_RULE,
  AUDIENCE_LIMITS,
  AUDIENCE_OPS,
  CORE_NUMBER_FIELDS,
  CURRENCY_COUNTERS,
  audienceIssues,
  describeAudience,
  parseAudienceField,
  type AudienceComparison,
  type AudienceOp,
} from "./targeting/audience";

// ---------- identifiers and scalars ----------

/**
 * The one rule for every identifier of this API: game, player (JWT `sub`, body fields, referral
 * ids, admin paths), offer, currency, client and instance ids. 1–200 characters of ASCII letters,
 * digits and `_ . @ + = | ~ -`, starting with a letter, digit or `_`. Why so narrow: ids travel in
 * URL paths (no `/ ? # %`, no `.` or `..` alone), in `gameId:playerId` keys and bus channels (no
 * `:`), and in logs and support screens (no spaces, controls or look-alike Unicode: `é` has two
 * spellings that look the same). UUIDs, numbers, e-mail addresses and `auth0|…` subjects fit.
 */
export const IDENTIFIER_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.@+=|~-]{0,199}$/;
export const IDENTIFIER_RULE = "1–200 of A–Z a–z 0–9 _ . @ + = | ~ -, starting with a letter, digit or _";
export const isIdentifier = (value: unknown): value is string => typeof value === "string" && IDENTIFIER_PATTERN.test(value);
export const Identifier = z.string().regex(IDENTIFIER_PATTERN, IDENTIFIER_RULE);
/** Ids chosen by game servers (gameId, playerId, offerId, currency id). */
export const ExternalId = Identifier;

/**
 * Text PostgreSQL cannot store unchanged: U+0000 (refused by text and jsonb) and UTF-16
 * surrogates without their pair (refused by jsonb, silently replaced by U+FFFD in text). With the
 * `u` flag a well-formed pair is one code point, so `\p{Cs}` matches only a lone surrogate.
 */
const UNSTORABLE_TEXT = /[\u0000\p{Cs}]/u;

/** Why a string cannot be stored as sent, or null when it can. */
export function unstorableTextReason(value: string): string | null {
  if (!UNSTORABLE_TEXT.test(value)) return null;
  return value.includes("\u0000") ? "must not contain U+0000 (NUL)" : "must be well-formed Unicode (a UTF-16 surrogate without its pair)";
}

export interface ValidationIssue {
  path: Array<string | number>;
  message: string;
}

/**
 * Every string (and object key) of a parsed JSON value, params or query that cannot be stored,
 * with its path; at most `limit`. Iterative: a deeply nested body must not overflow the stack.
 */
export function findUnstorableText(value: unknown, limit = 20): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: Array<{ value: unknown; path: Array<string | number> }> = [{ value, path: [] }];
  while (stack.length > 0 && issues.length < limit) {
    const item = stack.pop()!;
    const current = item.value;
    if (typeof current === "string") {
      const reason = unstorableTextReason(current);
      if (reason) issues.push({ path: item.path, message: reason });
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: [...item.path, i] });
    } else if (current !== null && typeof current === "object") {
      for (const key of Object.keys(current)) {
        const reason = unstorableTextReason(key);
        if (reason) issues.push({ path: [...item.path, key], message: `key ${reason}` });
        stack.push({ value: (current as Record<string, unknown>)[key], path: [...item.path, key] });
      }
    }
  }
  return issues;
}
export const Timestamp = z.iso.datetime({ offset: true }).describe("ISO 8601 UTC timestamp");
/** data:image URLs of raster formats and SVG, base64 only (what the demo and inline icons use). */
const DATA_IMAGE_URL = /^data:image\/(?:png|jpeg|gif|webp|avif|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/i;
const isImageUrl = (value: string) => DATA_IMAGE_URL.test(value) || (/^https?:\/\/\S+$/i.test(value) && URL.canParse(value));
/**
 * An image the game client and the portal show: http(s), or an inline data:image. Nothing else
 * (javascript:, file:, other data:): clients put it in an img src or a link.
 */
export const ImageUrl = z
  .string()
  .max(2048, { error: "must be at most 2,048 characters" })
  .refine(isImageUrl, { error: "must be an http:// or https:// URL, or a data:image/(png|jpeg|gif|webp|avif|svg+xml);base64 URL" })
  .meta({ format: "uri", description: "http(s) URL, or data:image/(png|jpeg|gif|webp|avif|svg+xml);base64,…; at most 2,048 characters" });

// ---------- rewards and conditions ----------

export const RewardKind = z.enum(["item", "coins", "exp", "trust_points", "loyalty_currency"]);
export type RewardKind = z.infer<typeof RewardKind>;

export const Reward = z.object({
  kind: RewardKind,
  rewardId: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  amount: z.number().finite().nonnegative(),
  image: ImageUrl.optional(),
});
export type Reward = z.infer<typeof Reward>;
/**
 * A reward as live ops or a game server authors it in a definition: an unknown key is refused (a
 * misspelt field would otherwise vanish). Rewards in referrals keep the interface's tolerance.
 */
const AuthoredReward = z.strictObject(Reward.shape);

/** Completion-condition kinds the engine can track. The interface names spendCurrency only. */
export const CompletionConditionKind = z.enum(["spendCurrency"]);
export type CompletionConditionKind = z.infer<typeof CompletionConditionKind>;

export const CompletionCondition = z.strictObject({
  kind: CompletionConditionKind,
  /** Identifier of the currency. */
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  amount: z.number().finite().positive(),
});
export type CompletionCondition = z.infer<typeof CompletionCondition>;

// ---------- offers ----------

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

// ---------- targeting: who an offer surfaces for by itself, when and how often ----------

/** Lifecycle of a definition: only `active` ones surface by themselves; `archived` ones are no longer assigned at all. */
export const DefinitionStatus = z.enum(["draft", "active", "paused", "archived"]);
export type DefinitionStatus = z.infer<typeof DefinitionStatus>;

/**
 * A rule over the player's snapshot (./targeting/audience). Validated by walking it, so a fault is
 * reported at its exact path (`audience.all.1.op: unknown op …`) rather than as "invalid union".
 */
export const AudienceRule = z
  .custom<AudienceRuleValue>()
  .superRefine((value, ctx) => {
    for (const issue of audienceIssues(value)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  })
  .meta({
    description:
      "A rule over the player's snapshot: {all: [rule…]}, {any: [rule…]}, {not: rule}, or a comparison {field, op, value}. " +
      `Fields: ${AUDIENCE_FIELD_RULE}. Ops: ${AUDIENCE_OPS.join(", ")} (in: a list; between: [low, high]; exists: true/false). ` +
      "A comparison on a currency or level the player never reported is false (test it with exists). {all: []} matches every player.",
    examples: [{ all: [{ field: "loginStreak", op: "gte", value: 3 }, { field: "currencies.gems.out", op: "lt", value: 100 }] }],
  });
export type AudienceRule = AudienceRuleValue;

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

// ---------- players ----------

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

// ---------- interface endpoints ----------

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

export const ClaimKind = z.enum(["offer", "referral"]);
export type ClaimKind = z.infer<typeof ClaimKind>;

export const ClientClaimRequest = z.object({ kind: ClaimKind, instanceId: Identifier });
export type ClientClaimRequest = z.infer<typeof ClientClaimRequest>;
export const ClientClaimResponse = z.object({ message: z.string() });
export type ClientClaimResponse = z.infer<typeof ClientClaimResponse>;

/**
 * Idempotency-Key request header of both claim endpoints: 1–255 printable ASCII characters.
 * A retry with the same key and the same claim within 24 h answers the first answer again.
 */
export const IdempotencyKey = z
  .string()
  .regex(/^[\x20-\x7e]{1,255}$/, "1–255 printable ASCII characters")
  .describe(
    "Makes a retried claim safe: a retry with the same key and the same body within 24 h answers exactly the first answer " +
      "(200, same rewards, header Idempotent-Replayed: true); the same key with another claim answers 422 idempotency-key-reused. " +
      "Keys are scoped per game, player and endpoint. Only a successful claim binds its key.",
  );
export const ClaimHeaders = z.object({ "idempotency-key": IdempotencyKey.optional() }).loose();

export const ServerClaimRequest = ClientClaimRequest.extend({ playerId: ExternalId });
export type ServerClaimRequest = z.infer<typeof ServerClaimRequest>;
export const ServerClaimResponse = z.object({ message: z.string(), rewards: z.array(Reward) });
export type ServerClaimResponse = z.infer<typeof ServerClaimResponse>;

/** The interface asks for an empty JSON object; extra keys are ignored. */
export const OneTimeTokenGenerateRequest = z.object({}).optional();
export const OneTimeTokenGenerateResponse = z.object({ token: z.string() });
export type OneTimeTokenGenerateResponse = z.infer<typeof OneTimeTokenGenerateResponse>;

// ---------- endpoints of ours (DESIGN) ----------

export const OneTimeTokenRedeemRequest = z.object({ token: z.string().min(1).max(200), gameId: ExternalId });
export type OneTimeTokenRedeemRequest = z.infer<typeof OneTimeTokenRedeemRequest>;
/**
 * The player's address as the portal's rewards page relays it: redeems are limited per player
 * address, and the portal redeems from its own server. Believed only with the portal's credential
 * (Authorization: Bearer OFFERS_ADMIN_TOKEN); from anyone else it is ignored.
 */
export const CLIENT_ADDRESS_HEADER = "x-offers-client-address";
export const OneTimeTokenRedeemHeaders = z
  .object({
    [CLIENT_ADDRESS_HEADER]: z
      .union([z.ipv4(), z.ipv6()])
      .optional()
      .describe(
        "The player's IP address, sent by the portal with `Authorization: Bearer` OFFERS_ADMIN_TOKEN: the redeem then spends that address's budget " +
          "instead of the caller's. Without a credential it is ignored; with a wrong token it answers 401 invalid-admin-token.",
      ),
  })
  .loose();
export const OneTimeTokenRedeemResponse = z.object({
  playerId: z.string(),
  gameId: z.string(),
  /** HS256 JWT of the game, valid 15 minutes. */
  accessToken: z.string(),
});
export type OneTimeTokenRedeemResponse = z.infer<typeof OneTimeTokenRedeemResponse>;

export const AssignOfferRequest = z.object({ playerId: ExternalId, offerId: ExternalId });
export type AssignOfferRequest = z.infer<typeof AssignOfferRequest>;

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

export const CurrencyInput = z.strictObject({ name: z.string().min(1).max(200), image: ImageUrl });
export type CurrencyInput = z.infer<typeof CurrencyInput>;
export const Currency = z.object({ gameId: z.string(), id: z.string(), name: z.string(), image: z.string() });
export type Currency = z.infer<typeof Currency>;
export const CurrencyParams = z.object({ currencyId: ExternalId });

export const ReferralStatus = z.enum(["pending", "claimable", "claimed"]);
export type ReferralStatus = z.infer<typeof ReferralStatus>;
export const ReferralCreateRequest = z.object({
  referrerId: ExternalId,
  refereeId: ExternalId,
  rewards: z.array(Reward).min(1).max(50),
});
export type ReferralCreateRequest = z.infer<typeof ReferralCreateRequest>;
export const Referral = z.object({
  instanceId: z.string(),
  gameId: z.string(),
  referrerId: z.string(),
  refereeId: z.string(),
  rewards: z.array(Reward),
  status: ReferralStatus,
  createdAt: Timestamp,
});
export type Referral = z.infer<typeof Referral>;
export const ClientReferralsRequest = z.object({}).optional();
/** A referral as its referrer sees it: with the referred friend's username once they play. */
export const PlayerReferral = Referral.extend({ refereeUsername: z.string().optional() });
export type PlayerReferral = z.infer<typeof PlayerReferral>;
/** The referrals a player made (the player is the referrer), newest first. */
export const ClientReferralsResponse = z.object({ referrals: z.array(PlayerReferral) });
export type ClientReferralsResponse = z.infer<typeof ClientReferralsResponse>;

// ---------- reward delivery: the reward.granted event, the ledger feed, webhook endpoints ----------

/** Who claimed: a game client (JWT), a game server (API key) or the player on the rewards page. */
export const RewardSource = z.enum(["client", "server", "dashboard"]);
export type RewardSource = z.infer<typeof RewardSource>;

export const RewardGrantedData = z.object({
  gameId: z.string(),
  /** The game's environment the claim was made in: a test credential's claims say test. */
  environment: Environment,
  playerId: z.string(),
  kind: ClaimKind,
  /** The offer instance or referral that was claimed (the claim's instanceId). */
  instanceId: z.string(),
  /** The offer definition (kind offer). */
  offerId: z.string().optional(),
  /** The reward variant the player drew, when the definition has variants. */
  variant: z.string().optional(),
  rewards: z.array(Reward),
  source: RewardSource,
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

export const WebhookEndpointInput = z.strictObject({
  url: WebhookUrl,
  description: z.string().max(500).default(""),
  eventTypes: z.array(WebhookEventType).min(1).max(10).default(["reward.granted"]),
  enabled: z.boolean().default(true),
});
export type WebhookEndpointInput = z.infer<typeof WebhookEndpointInput>;
export type WebhookEndpointDraft = z.input<typeof WebhookEndpointInput>;

export const WebhookEndpointPatch = z
  .strictObject({
    url: WebhookUrl.optional(),
    description: z.string().max(500).optional(),
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
/** A delivery's id (a serial number), as a path or query parameter. */
/** The body of an action that takes none: absent, null or `{}` (some clients send null for "nothing"); any key is refused. */
export const EmptyBody = z.strictObject({}).nullish();
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

// ---------- the event stream ----------

/** GET /v1/sse/connect's body as the document shows it: text, one event per blank-line-ended group. */
export const EventStreamText = z.string().meta({
  description:
    "Server-sent events (UTF-8). `event: offer_surfaced` with an `id:` (per-player sequence; send it back as Last-Event-ID) and " +
    "`data:` one JSON object `{\"offer\": Offer}` (status surfaced); `:heartbeat` comment lines every 30 s; " +
    "`event: replaced` (id `replaced`, data `{\"message\":\"stream-replaced\"}`) before the server closes a stream a newer one replaced.",
  examples: ['id: 7\nevent: offer_surfaced\ndata: {"offer":{"offerId":"daily-login","instanceId":"…","status":"surfaced","…":"…"}}\n\n:heartbeat\n\n'],
});

// ---------- errors and probes ----------

/** JWT errors and other coded errors: {"message": code}. */
export const ErrorMessage = z.object({ message: z.string() });
export type ErrorMessage = z.infer<typeof ErrorMessage>;
export const JwtErrorCode = z.enum([
  "jwt-expired",
  "jwt-invalid",
  "jwt-missing-gameId",
  "jwt-missing-playerId",
  "jwt-not-yet-valid",
  "unknown-gameId",
]);
export type JwtErrorCode = z.infer<typeof JwtErrorCode>;
/** API key errors: the body is the bare JSON string. */
export const ApiKeyError = z.literal("invalid-api-key");
/** A change whose If-Match is stale: the current ETag (also the ETag header), to GET again and retry with. */
export const PreconditionFailed = z.object({
  message: z.literal("precondition-failed"),
  etag: z.string().describe("The current ETag"),
});
export type PreconditionFailed = z.infer<typeof PreconditionFailed>;
export const InvalidRequest = z.object({
  message: z.literal("invalid-request"),
  issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })),
});
export type InvalidRequest = z.infer<typeof InvalidRequest>;

export const HealthResponse = z.object({
  status: z.enum(["ok", "unavailable"]),
  database: z.enum(["ok", "unavailable"]),
  message: z.string().optional(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

// ---- admin API (the portal's support dashboard) ----

export const AdminGame = z.object({
  gameId: z.string(),
  name: z.string(),
  maxOfferSlots: z.number(),
  players: z.number(),
  currencies: z.array(z.object({ id: z.string(), name: z.string(), image: z.string() })),
});
export type AdminGame = z.infer<typeof AdminGame>;

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
});

export const AdminPlayerState = z.object({
  gameId: z.string(),
  playerId: z.string(),
  snapshot: PlayerSnapshot,
  playerData: PlayerData,
  offers: z.array(Offer.extend({ events: z.array(AdminOfferEvent) })),
  ledger: z.array(z.object({ sourceKind: z.string(), sourceId: z.string(), rewards: z.array(Reward), grantedAt: z.string() })),
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

// ---- admin API: live ops (the portal's offers console) ----

/** A definition as written through the admin API: the same fields, offerId required when creating. */
export const AdminDefinitionCreate = OfferDefinitionInput.safeExtend({ offerId: ExternalId });

/**
 * If-Match of a change on the admin API: the ETag the change was based on. Required when the thing
 * changed exists (428 precondition-required without); a stale one is 412 precondition-failed with the
 * current ETag. Optional in the schema because a PUT that creates needs none.
 */
export const IfMatchRequired = z
  .object({
    "if-match": z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .describe("The ETag this change is based on (or *). Required to change something that exists: 428 without it, 412 with the current ETag when it is stale"),
  })
  .loose();

/** If-Match of a game server's change: optional (calls written before it keep working); when sent, checked as on the admin API. */
export const IfMatchOptional = z
  .object({
    "if-match": z.string().min(1).max(1024).optional().describe("Optional: the ETag this change is based on (or *); a stale one is 412 with the current ETag"),
  })
  .loose();

export const SurfacingJob = z.object({
  id: z.number().int(),
  definitionVersion: z.number().int(),
  reason: z.enum(["activated", "updated", "window-opened"]),
  status: z.enum(["queued", "running", "done", "failed", "superseded"]),
  playersTotal: z.number().int().nullable(),
  playersEvaluated: z.number().int(),
  activations: z.number().int(),
  attempts: z.number().int(),
  error: z.string().nullable(),
  createdAt: Timestamp,
  startedAt: Timestamp.nullable(),
  finishedAt: Timestamp.nullable(),
  updatedAt: Timestamp,
});
export type SurfacingJob = z.infer<typeof SurfacingJob>;

export const FunnelCounts = z.object({
  assigned: z.number().int(),
  surfaced: z.number().int(),
  viewed: z.number().int(),
  claimable: z.number().int(),
  claimed: z.number().int(),
  expired: z.number().int(),
  /** claimed ÷ surfaced; null before anything surfaced. */
  conversion: z.number().nullable(),
});
export type FunnelCounts = z.infer<typeof FunnelCounts>;

export const AdminDefinitionSummary = OfferDefinition.extend({
  /** The audience in one line ("loginStreak ≥ 3 and …"). */
  audienceSummary: z.string(),
  funnel: FunnelCounts,
  /** Claims per UTC day, oldest first, over the list's window. */
  claimsPerDay: z.array(z.number().int()),
});
export type AdminDefinitionSummary = z.infer<typeof AdminDefinitionSummary>;

export const AdminDefinitionList = z.object({
  definitions: z.array(AdminDefinitionSummary),
  /** First UTC day of claimsPerDay. */
  since: z.string(),
  days: z.number().int(),
});
export type AdminDefinitionList = z.infer<typeof AdminDefinitionList>;

export const AdminDefinitionDetail = z.object({
  definition: OfferDefinition,
  audienceSummary: z.string(),
  /** Surfacing jobs of this definition, newest first. */
  jobs: z.array(SurfacingJob),
});
export type AdminDefinitionDetail = z.infer<typeof AdminDefinitionDetail>;

/** The answer of a create, edit or status change: the definition before and after, and the job it queued. */
export const AdminDefinitionChange = z.object({
  definition: OfferDefinition,
  before: OfferDefinition.nullable(),
  changed: z.boolean(),
  job: SurfacingJob.nullable(),
});
export type AdminDefinitionChange = z.infer<typeof AdminDefinitionChange>;

export const DefinitionAction = z.enum(["activate", "pause", "archive", "restore"]);
export type DefinitionAction = z.infer<typeof DefinitionAction>;

export const SurfacingPreviewRequest = z.strictObject({ playerId: ExternalId });
export const SurfacingPreview = z.object({
  gameId: z.string(),
  offerId: z.string(),
  playerId: z.string(),
  definitionVersion: z.number().int(),
  wouldSurface: z.boolean(),
  as: z.enum(["surfaced", "inQueue"]).nullable(),
  failed: z.enum(["status", "schedule", "audience", "rollout", "open-instance", "activations", "cooldown", "stock"]).nullable(),
  checks: z.array(z.object({ check: z.string(), passed: z.boolean(), detail: z.string() })),
  variantId: z.string().nullable(),
});
export type SurfacingPreview = z.infer<typeof SurfacingPreview>;

export const AudienceCountRequest = z.strictObject({
  audience: AudienceRule,
  /** With a rollout, only players inside it count (the draw depends on the offerId). */
  rollout: z.number().finite().min(0).max(100).optional(),
  offerId: ExternalId.optional(),
})
  // Which players a rollout takes is a hash of game, offer and player: without the offer there is no draw to apply.
  .refine((r) => r.rollout === undefined || r.offerId !== undefined, { path: ["offerId"], error: "required with rollout: which players a rollout takes depends on the offer" });
export type AudienceCountRequest = z.infer<typeof AudienceCountRequest>;
export const AudienceCount = z.object({ matching: z.number().int(), players: z.number().int() });
export type AudienceCount = z.infer<typeof AudienceCount>;

export const DefinitionFunnel = z.object({
  days: z.number().int(),
  total: FunnelCounts,
  byDay: z.array(FunnelCounts.extend({ day: z.string() })),
  variants: z.array(FunnelCounts.extend({ variantId: z.string() })),
  comparisons: z.array(
    z.object({
      variantId: z.string(),
      baselineId: z.string(),
      difference: z.number().nullable(),
      low: z.number().nullable(),
      high: z.number().nullable(),
      significant: z.boolean(),
    }),
  ),
});
export type DefinitionFunnel = z.infer<typeof DefinitionFunnel>;

// ---- admin API: rate limits ----

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
