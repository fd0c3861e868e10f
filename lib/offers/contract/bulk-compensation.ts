/**
 * Incident compensation in bulk through the admin API: one reward (the rules of a single support
 * grant) to many players of a game environment, named as a list of ids (CSV text) or an audience
 * rule; always waiting for a second person's approval; then a resumable job with progress, cancel,
 * a summary and a downloadable result.
 */
import { z } from "zod";
import { AudienceRule } from "./audience-rule";
import { RewardKind } from "./rewards";
import { Identifier, Timestamp } from "./scalars";
import { SupportActor, SupportAmount, SupportReason } from "./support";

/** The most player ids one job takes. */
export const BULK_MAX_PLAYERS = 1_000_000;
/** The largest list of ids one job takes, in bytes: 1,000,000 ids of up to 31 characters, one a line. */
export const BULK_MAX_LIST_BYTES = 32 * 1024 * 1024;
/** The same limits as people read them (forms, errors, docs). */
export const BULK_LIMIT_IN_WORDS = "at most 1,000,000 player ids and 32 MB (one id a line, or separated by commas)";
/** How many invalid or duplicate ids a report quotes (the counts are always complete). */
export const BULK_SAMPLE_SIZE = 20;

/** Who gets the reward: a list of player ids (CSV text: one a line or comma-separated, an optional `playerId` header), or the players an audience rule matches now. */
export const BulkPlayers = z.union([
  z.strictObject({
    list: z.string().max(BULK_MAX_LIST_BYTES, { error: `a list of player ids holds ${BULK_LIMIT_IN_WORDS}` }),
  }),
  z.strictObject({ audience: AudienceRule }),
]);
export type BulkPlayers = z.infer<typeof BulkPlayers>;

export const BulkCompensationRequest = z.strictObject({
  kind: RewardKind,
  rewardId: Identifier,
  amount: SupportAmount,
  reason: SupportReason,
  actor: SupportActor,
  players: BulkPlayers,
});
export type BulkCompensationRequest = z.infer<typeof BulkCompensationRequest>;

/** An id of the list that is not granted, quoted as sent (control characters escaped) with its line. */
export const BulkRejectedId = z.object({ line: z.number(), value: z.string() });

/** What a job would grant (the preview) and, once stored, what it was asked for. */
export const BulkPreview = z
  .object({
    /** Players who get the reward. */
    players: z.number(),
    /** players × amount. */
    totalAmount: z.number(),
    kind: RewardKind,
    rewardId: z.string(),
    name: z.string(),
    amount: z.number(),
    /** Ids of the list that break the id rule: counted and quoted, never granted. */
    invalid: z.number(),
    invalidSample: z.array(BulkRejectedId),
    /** Ids listed more than once: counted once. */
    duplicates: z.number(),
    duplicateSample: z.array(BulkRejectedId),
    /** Well-formed ids of no player of this game environment (another environment's, or mistyped): reported, never granted. */
    unknown: z.number(),
    unknownSample: z.array(z.string()),
  })
  .meta({ id: "BulkPreview" });
export type BulkPreview = z.infer<typeof BulkPreview>;

export const BulkJobStatus = z.enum(["pending", "rejected", "expired", "running", "done", "cancelled"]);
export type BulkJobStatus = z.infer<typeof BulkJobStatus>;

export const BulkProgress = z.object({
  /** Players granted so far. */
  granted: z.number(),
  /** Players still to grant (0 once done; those left at a cancel are counted as cancelled). */
  remaining: z.number(),
  cancelled: z.number(),
  /** Players of the job (granted + remaining + cancelled). */
  total: z.number(),
});

export const BulkCompensation = z
  .object({
    jobId: z.string(),
    gameId: z.string(),
    source: z.enum(["list", "audience"]),
    reason: z.string(),
    requestedBy: z.string(),
    status: BulkJobStatus,
    preview: BulkPreview,
    progress: BulkProgress,
    decidedBy: z.string().nullable(),
    decisionReason: z.string().nullable(),
    cancelledBy: z.string().nullable(),
    requestedAt: Timestamp,
    decidedAt: Timestamp.nullable(),
    /** A pending job not approved by then expires. */
    expiresAt: Timestamp.nullable(),
    finishedAt: Timestamp.nullable(),
    resultDeletedAt: Timestamp.nullable().describe(
      "When the per-player result was deleted (OFFERS_BULK_RETENTION_DAYS after the job ended); the progress counts stay. Null while the result is kept.",
    ),
  })
  .meta({ id: "BulkCompensation" });
export type BulkCompensation = z.infer<typeof BulkCompensation>;

export const BulkCompensationResponse = z.object({ job: BulkCompensation });
export type BulkCompensationResponse = z.infer<typeof BulkCompensationResponse>;

export const BulkPreviewResponse = z.object({ preview: BulkPreview });
export type BulkPreviewResponse = z.infer<typeof BulkPreviewResponse>;

export const BulkCompensationsQuery = z.object({
  status: BulkJobStatus.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const BulkCompensationList = z.object({
  jobs: z.array(BulkCompensation),
  /** Jobs waiting for approval in this game environment (for a badge). */
  pending: z.number(),
});
export type BulkCompensationList = z.infer<typeof BulkCompensationList>;

export const BulkDecisionRequest = z.strictObject({ actor: SupportActor, reason: SupportReason.optional() });
export const BulkRejectRequest = z.strictObject({ actor: SupportActor, reason: SupportReason });
export const BulkCancelRequest = z.strictObject({ actor: SupportActor, reason: SupportReason });

/** The result's outcome per player. */
export const BulkItemOutcome = z.enum(["pending", "granted", "cancelled"]);
export type BulkItemOutcome = z.infer<typeof BulkItemOutcome>;
