/**
 * Offers database. Every table is prefixed `offers_` so the offers service can share a PostgreSQL
 * database with others; its migrations table is `__offers_migrations`.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type {
  ApprovalRule,
  AudienceRule,
  CompletionCondition,
  CompletionTrackers,
  DefinitionStatus,
  DeliveryStatus,
  Reward,
  RewardEventKind,
  RewardSource,
  RewardVariant,
  SupportGrantStatus,
  WebhookEventType,
} from "../contract";

export type { RewardSource };

/** One attempt of a webhook delivery as the delivery row keeps it. */
export interface StoredAttempt {
  at: string;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
}

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** PostgreSQL's 64-bit transaction id (pg_current_xact_id()); read as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

export const games = pgTable("offers_games", {
  gameId: text("game_id").primaryKey(),
  name: text("name").notNull(),
  maxOfferSlots: integer("max_offer_slots").notNull().default(3),
  /** Longest JWT lifetime accepted (exp − iat, or exp − now without iat); longer tokens are jwt-invalid. */
  maxTokenLifetimeSeconds: integer("max_token_lifetime_seconds").notNull().default(86_400),
  /** Requests per minute of each player's game client (JWT routes); null = OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE, 0 = unlimited. */
  clientRateLimitPerMinute: integer("client_rate_limit_per_minute"),
  /** Requests per minute of the game's servers (API-key routes); null = OFFERS_RATE_LIMIT_SERVER_PER_MINUTE, 0 = unlimited. */
  serverRateLimitPerMinute: integer("server_rate_limit_per_minute"),
  /** Four eyes: when a support grant waits for a second person (../engine/four-eyes). Empty: every grant is immediate. */
  supportApprovalRules: jsonb("support_approval_rules").$type<ApprovalRule[]>().notNull().default([]),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/**
 * Service-wide settings, one row each. `secret-key-check` holds an HMAC of a constant under
 * OFFERS_SECRET_KEY, so an instance started with another key refuses to start instead of failing
 * every API-key request.
 */
export const settings = pgTable("offers_settings", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/**
 * One API client = one client id + one API key. The key is also the HS256 secret of the game's
 * JWTs, so it is stored encrypted (AES-256-GCM), never hashed: verifying a JWT needs the key itself.
 * Rotation adds a second active client; revocation sets revokedAt.
 */
export const apiClients = pgTable(
  "offers_api_clients",
  {
    clientId: text("client_id").primaryKey(),
    gameId: text("game_id")
      .notNull()
      .references(() => games.gameId, { onDelete: "cascade" }),
    /** base64url(iv) . base64url(tag) . base64url(ciphertext) */
    encryptedKey: text("encrypted_key").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    revokedAt: ts("revoked_at"),
  },
  (t) => [index("offers_api_clients_game_idx").on(t.gameId)],
);

export const currencies = pgTable(
  "offers_currencies",
  {
    gameId: text("game_id")
      .notNull()
      .references(() => games.gameId, { onDelete: "cascade" }),
    currencyId: text("currency_id").notNull(),
    name: text("name").notNull(),
    image: text("image").notNull(),
  },
  (t) => [primaryKey({ columns: [t.gameId, t.currencyId] })],
);

export const offerDefinitions = pgTable(
  "offers_definitions",
  {
    gameId: text("game_id")
      .notNull()
      .references(() => games.gameId, { onDelete: "cascade" }),
    offerId: text("offer_id").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    image: text("image"),
    rewards: jsonb("rewards").$type<Reward[]>().notNull(),
    completionConditions: jsonb("completion_conditions").$type<CompletionCondition[]>(),
    realTime: boolean("real_time").notNull().default(false),
    durationSeconds: integer("duration_seconds").notNull(),
    priority: integer("priority").notNull().default(0),
    /** Only `active` definitions with an audience surface by themselves. */
    status: text("status").$type<DefinitionStatus>().notNull().default("active"),
    /** Revision: +1 on every change; automatic assignments and surfacing jobs name the version they ran. */
    version: integer("version").notNull().default(1),
    /** Targeting rule over the snapshot; null = assigned only explicitly. */
    audience: jsonb("audience").$type<AudienceRule>(),
    startsAt: ts("starts_at"),
    endsAt: ts("ends_at"),
    maxActivationsPerPlayer: integer("max_activations_per_player").notNull().default(1),
    cooldownSeconds: integer("cooldown_seconds").notNull().default(0),
    maxClaimsTotal: integer("max_claims_total"),
    /** Percentage of the audience (deterministic per player). */
    rollout: doublePrecision("rollout").notNull().default(100),
    variants: jsonb("variants").$type<RewardVariant[]>(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.gameId, t.offerId] }),
    index("offers_definitions_targeted_idx").on(t.gameId).where(sql`status = 'active' and audience is not null`),
  ],
);

/**
 * One row per player of a game: the last pushed snapshot, and the per-player event counter.
 * Every write that concerns a player locks this row first, so a player's transitions are serial
 * (slots cannot be over-filled) and event sequence ids are gap-free and in commit order.
 */
export const players = pgTable(
  "offers_players",
  {
    gameId: text("game_id")
      .notNull()
      .references(() => games.gameId, { onDelete: "cascade" }),
    playerId: text("player_id").notNull(),
    username: text("username").notNull().default(""),
    daysInGame: doublePrecision("days_in_game").notNull().default(0),
    loginStreak: doublePrecision("login_streak").notNull().default(0),
    trustScore: doublePrecision("trust_score").notNull().default(0),
    currencies: jsonb("currencies").$type<Record<string, { balance: number; in: number; out: number }>>().notNull().default({}),
    levels: jsonb("levels").$type<Record<string, { level: number }>>().notNull().default({}),
    /** Last event sequence id given to this player (monotonic, per player). */
    eventSeq: bigint("event_seq", { mode: "number" }).notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.gameId, t.playerId] })],
);

/**
 * One row per assignment of a definition to a player. The definition's content is copied at
 * assignment, so a later edit of the definition never changes what a player was promised.
 */
export const offerInstances = pgTable(
  "offers_instances",
  {
    instanceId: text("instance_id").primaryKey(),
    gameId: text("game_id").notNull(),
    playerId: text("player_id").notNull(),
    offerId: text("offer_id").notNull(),
    status: text("status").$type<"inQueue" | "surfaced" | "viewed" | "claimable" | "claimed" | "expired">().notNull(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    image: text("image"),
    rewards: jsonb("rewards").$type<Reward[]>().notNull(),
    completionConditions: jsonb("completion_conditions").$type<CompletionCondition[]>(),
    realTime: boolean("real_time").notNull(),
    durationSeconds: integer("duration_seconds").notNull(),
    priority: integer("priority").notNull(),
    /** currencies[X].out at surfacing, per tracker key: progress is measured from here. */
    trackerBaseline: jsonb("tracker_baseline").$type<Record<string, number>>().notNull().default({}),
    completionTrackers: jsonb("completion_trackers").$type<CompletionTrackers>().notNull().default({}),
    createdAt: ts("created_at").notNull(),
    surfacedAt: ts("surfaced_at"),
    expiresAt: ts("expires_at").notNull(),
    claimedAt: ts("claimed_at"),
    updatedAt: ts("updated_at").notNull(),
    /** The reward variant drawn for this player (definitions with variants). */
    variantId: text("variant_id"),
    /** The definition's version when it was assigned. */
    definitionVersion: integer("definition_version"),
  },
  (t) => [
    index("offers_instances_player_idx").on(t.gameId, t.playerId, t.status),
    index("offers_instances_offer_idx").on(t.gameId, t.offerId, t.status),
    index("offers_instances_expiry_idx")
      .on(t.expiresAt)
      .where(sql`status in ('inQueue', 'surfaced', 'viewed')`),
  ],
);

/** Every transition of an offer, with its cause and time; also the replay log of the event stream. */
export const offerEvents = pgTable(
  "offers_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    gameId: text("game_id").notNull(),
    playerId: text("player_id").notNull(),
    /** Monotonic per player (from offers_players.event_seq). */
    seq: bigint("seq", { mode: "number" }).notNull(),
    instanceId: text("instance_id").notNull(),
    type: text("type").notNull(),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    cause: text("cause").notNull(),
    at: ts("at").notNull(),
    /** For cause `rule`: the version of the definition whose rule assigned the offer. */
    ruleVersion: integer("rule_version"),
    /** For cause `support`: who acted (the portal's signed-in person) and why. */
    actor: text("actor"),
    reason: text("reason"),
  },
  (t) => [
    uniqueIndex("offers_events_player_seq_idx").on(t.gameId, t.playerId, t.seq),
    index("offers_events_instance_idx").on(t.instanceId),
  ],
);

/** What was granted, once per claimed source (offer instance or referral) or support grant. */
export const rewardLedger = pgTable(
  "offers_reward_ledger",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    gameId: text("game_id").notNull(),
    playerId: text("player_id").notNull(),
    sourceKind: text("source_kind").$type<RewardEventKind>().notNull(),
    sourceId: text("source_id").notNull(),
    rewards: jsonb("rewards").$type<Reward[]>().notNull(),
    grantedAt: ts("granted_at").notNull(),
  },
  (t) => [
    uniqueIndex("offers_reward_ledger_source_idx").on(t.sourceKind, t.sourceId),
    index("offers_reward_ledger_player_idx").on(t.gameId, t.playerId),
  ],
);

export const referrals = pgTable(
  "offers_referrals",
  {
    instanceId: text("instance_id").primaryKey(),
    gameId: text("game_id")
      .notNull()
      .references(() => games.gameId, { onDelete: "cascade" }),
    referrerId: text("referrer_id").notNull(),
    refereeId: text("referee_id").notNull(),
    rewards: jsonb("rewards").$type<Reward[]>().notNull(),
    status: text("status").$type<"pending" | "claimable" | "claimed">().notNull(),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
    claimedAt: ts("claimed_at"),
  },
  (t) => [
    // A player is referred once per game.
    uniqueIndex("offers_referrals_referee_idx").on(t.gameId, t.refereeId),
    index("offers_referrals_referrer_idx").on(t.gameId, t.referrerId),
  ],
);

/** One-time dashboard tokens: only the SHA-256 of the token is kept. */
export const oneTimeTokens = pgTable(
  "offers_one_time_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    gameId: text("game_id").notNull(),
    playerId: text("player_id").notNull(),
    createdAt: ts("created_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [index("offers_one_time_tokens_expiry_idx").on(t.expiresAt)],
);

/**
 * Idempotency keys of claims: the key a client sent with a claim that succeeded, per game, player
 * and endpoint, with a fingerprint of the request and the rewards answered, so a retry within 24 h
 * gets the same answer. Written in the same statement (or transaction) as the claim.
 */
export const idempotencyKeys = pgTable(
  "offers_idempotency_keys",
  {
    gameId: text("game_id").notNull(),
    playerId: text("player_id").notNull(),
    /** Which claim endpoint: `client` (JWT) or `sdk` (API key). */
    endpoint: text("endpoint").$type<"client" | "sdk">().notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the claim as parsed (kind, instanceId). */
    fingerprint: text("fingerprint").notNull(),
    rewards: jsonb("rewards").$type<Reward[]>().notNull(),
    createdAt: ts("created_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.gameId, t.playerId, t.endpoint, t.key] }), index("offers_idempotency_keys_expiry_idx").on(t.expiresAt)],
);

/**
 * Surfacing jobs: one run over every player of a game that has a snapshot, per version of an active
 * targeted definition whose window is open (activation, an edit, or the window opening). Claimed by
 * one instance at a time with a lease (FOR UPDATE SKIP LOCKED), resumable from `cursor` after a
 * crash; the per-player rules make a re-run assign nothing twice.
 */
export const surfacingJobs = pgTable(
  "offers_surfacing_jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    gameId: text("game_id").notNull(),
    offerId: text("offer_id").notNull(),
    definitionVersion: integer("definition_version").notNull(),
    /** Why it runs: activated, updated or window-opened. */
    reason: text("reason").$type<"activated" | "updated" | "window-opened">().notNull(),
    status: text("status").$type<"queued" | "running" | "done" | "failed" | "superseded">().notNull().default("queued"),
    /** The last player id evaluated (players are walked in id order). */
    cursor: text("cursor"),
    playersTotal: integer("players_total"),
    playersEvaluated: integer("players_evaluated").notNull().default(0),
    activations: integer("activations").notNull().default(0),
    lockedBy: text("locked_by"),
    lockedUntil: ts("locked_until"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    createdAt: ts("created_at").notNull(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("offers_surfacing_jobs_version_idx").on(t.gameId, t.offerId, t.definitionVersion),
    index("offers_surfacing_jobs_pending_idx").on(t.id).where(sql`status in ('queued', 'running')`),
  ],
);

/**
 * The transactional outbox of reward deliveries and the ledger feed: one `reward.granted` row per
 * successful claim, written in the claim's own statement or transaction (./engine/claim-rows.ts).
 * `xid` is the writing transaction's id: rows below the oldest running transaction are final, so
 * (xid, id) orders them as committed for the feed and the fan-out (docs/decisions).
 */
export const rewardEvents = pgTable(
  "offers_reward_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** The stable public id: the feed's `id` and every delivery's `webhook-id`. */
    eventId: text("event_id")
      .notNull()
      .default(sql`('evt_' || replace(gen_random_uuid()::text, '-', ''))`),
    xid: xid8("xid").notNull().default(sql`pg_current_xact_id()`),
    type: text("type").$type<"reward.granted">().notNull().default("reward.granted"),
    gameId: text("game_id").notNull(),
    playerId: text("player_id").notNull(),
    sourceKind: text("source_kind").$type<RewardEventKind>().notNull(),
    /** The offer instance or referral claimed, or the support grant. */
    sourceId: text("source_id").notNull(),
    offerId: text("offer_id"),
    variantId: text("variant_id"),
    rewards: jsonb("rewards").$type<Reward[]>().notNull(),
    source: text("source").$type<RewardSource>().notNull(),
    /** Support grants: who granted it (and who approved it, when a second person did), and why. */
    actor: text("actor"),
    approvedBy: text("approved_by"),
    reason: text("reason"),
    occurredAt: ts("occurred_at").notNull(),
  },
  (t) => [
    uniqueIndex("offers_reward_events_event_id_idx").on(t.eventId),
    index("offers_reward_events_feed_idx").on(t.gameId, t.xid, t.id),
    index("offers_reward_events_commit_idx").on(t.xid, t.id),
    // A player's timeline and support's re-send: the player's rewards, newest first.
    index("offers_reward_events_player_idx").on(t.gameId, t.playerId, t.occurredAt),
  ],
);

/** A game's webhook endpoints. The signing secret is stored encrypted (like API keys); during a rotation the previous one still signs until it expires. */
export const webhookEndpoints = pgTable(
  "offers_webhook_endpoints",
  {
    endpointId: text("endpoint_id").primaryKey(),
    gameId: text("game_id")
      .notNull()
      .references(() => games.gameId, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    eventTypes: jsonb("event_types").$type<WebhookEventType[]>().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    encryptedSecret: text("encrypted_secret").notNull(),
    previousEncryptedSecret: text("previous_encrypted_secret"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [index("offers_webhook_endpoints_game_idx").on(t.gameId)],
);

/**
 * The delivery jobs: one row per event and endpoint (the fan-out writes them), leased by one
 * instance at a time (FOR UPDATE SKIP LOCKED, then a lease token and time), retried on the
 * schedule, then failed. Test events carry their payload here (they are not reward events). The fan-out
 * inserts a delivery already leased to the instance that will send it, so a delivery that succeeds
 * at once costs two row writes: the insert and the outcome.
 */
export const webhookDeliveries = pgTable(
  "offers_webhook_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.endpointId, { onDelete: "cascade" }),
    gameId: text("game_id").notNull(),
    /** The `webhook-id`: the event's id, the same on every attempt and replay. */
    messageId: text("message_id").notNull(),
    eventType: text("event_type").notNull(),
    /**
     * The reward event sent. No foreign key: reward events are the ledger and are never deleted, and
     * the key's check locked the event's row on every delivery inserted (a WAL record and a dirtied
     * page of the events table per delivery, on the fan-out's hot path).
     */
    rewardEventId: bigint("reward_event_id", { mode: "number" }),
    /** The message of an event that is not a reward event (a test event). */
    payload: jsonb("payload").$type<Record<string, unknown>>(),
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    /** Attempts since it was queued or replayed: the position in the retry schedule. */
    tries: integer("tries").notNull().default(0),
    /** Every attempt ever made. */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    leaseToken: text("lease_token"),
    leasedUntil: ts("leased_until"),
    lastAttemptAt: ts("last_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    lastLatencyMs: integer("last_latency_ms"),
    /**
     * Every attempt (the last 50), oldest first: when, the receiver's status or why there was none,
     * how long it took. On the row itself, so recording an attempt is one row write.
     */
    attemptLog: jsonb("attempt_log").$type<StoredAttempt[]>().notNull().default([]),
    /** When the event happened: the lag and the replay ranges are measured on it. */
    eventAt: ts("event_at").notNull(),
    createdAt: ts("created_at").notNull(),
    deliveredAt: ts("delivered_at"),
    failedAt: ts("failed_at"),
    /** When a person last replayed it: a second replay inside the repeat window is the same replay (a double-click). */
    replayedAt: ts("replayed_at"),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("offers_webhook_deliveries_message_idx").on(t.endpointId, t.messageId),
    // Leasing: each endpoint's due deliveries, oldest first.
    index("offers_webhook_deliveries_due_idx").on(t.endpointId, t.nextAttemptAt).where(sql`status = 'pending'`),
    // The delivery log, newest first.
    index("offers_webhook_deliveries_game_idx").on(t.gameId, t.id),
    // The dead letters, and replays of a time range. (The lag reads the due index: few rows are pending.)
    index("offers_webhook_deliveries_failed_idx").on(t.gameId, t.eventAt).where(sql`status = 'failed'`),
    // A player's deliveries (timeline, re-send), found through their reward events.
    index("offers_webhook_deliveries_reward_event_idx").on(t.rewardEventId),
  ],
);

/**
 * Support grants of a compensation reward to one player: granted at once, or pending until a second
 * person approves or rejects it (never the requester), or until it expires. Decisions are
 * conditional updates of `status` (pending → …), so exactly one decision wins on any instance. A
 * granted one has its ledger row (source kind `support`, source id the grant id) and its
 * reward.granted event, written in the same transaction.
 */
export const supportGrants = pgTable(
  "offers_support_grants",
  {
    grantId: text("grant_id").primaryKey(),
    gameId: text("game_id")
      .notNull()
      .references(() => games.gameId, { onDelete: "cascade" }),
    playerId: text("player_id").notNull(),
    reward: jsonb("reward").$type<Reward>().notNull(),
    reason: text("reason").notNull(),
    requestedBy: text("requested_by").notNull(),
    status: text("status").$type<SupportGrantStatus>().notNull(),
    approvalRequired: boolean("approval_required").notNull(),
    decidedBy: text("decided_by"),
    decisionReason: text("decision_reason"),
    /** The Idempotency-Key the request was sent with, and the SHA-256 of the request as parsed. */
    idempotencyKey: text("idempotency_key"),
    fingerprint: text("fingerprint").notNull(),
    createdAt: ts("created_at").notNull(),
    decidedAt: ts("decided_at"),
    /** Pending grants only: undecided by then, it expires. */
    expiresAt: ts("expires_at"),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("offers_support_grants_key_idx").on(t.gameId, t.playerId, t.idempotencyKey),
    index("offers_support_grants_player_idx").on(t.gameId, t.playerId, t.createdAt),
    index("offers_support_grants_pending_idx").on(t.gameId, t.createdAt).where(sql`status = 'pending'`),
  ],
);

// Incident compensation in bulk: its tables in a file of their own (this one stays readable).
export * from "./schema-bulk";
// The player's activity for the timeline (snapshots pushed, streams opened and closed).
export * from "./schema-activity";
