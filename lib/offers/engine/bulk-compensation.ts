/**
 * Incident compensation in bulk: one reward (the rules of a single support grant, ./support-grants)
 * to many players of a game environment.
 *
 * - Asked for with a list of ids or an audience rule; the players are resolved then and stored as
 *   one item row per player (primary key (job, player)), so the preview the approver reads is
 *   exactly who is granted; unknown ids are items never granted, invalid ids and repeats are counted.
 * - Always four eyes: the job is `pending` until someone other than the requester approves it
 *   (one conditional update, exactly one decision wins; ./four-eyes) or rejects it, or it expires.
 * - Approved, it is `running`: runners on every instance (./bulk-runner) take batches of pending items FOR UPDATE
 *   SKIP LOCKED and, in the batch's transaction, write each player's ledger row (source id the
 *   item's grant id, unique) and reward.granted event (source support, actor, approvedBy, reason)
 *   and mark the items granted. A crash rolls a batch back whole; a re-run, a second instance or a
 *   restart finds those items granted: nobody is granted twice.
 * - Each batch holds the job row FOR SHARE, so a cancel (which takes it FOR UPDATE) waits for the
 *   batches in flight and then no batch grants anything more.
 * - OFFERS_BULK_RETENTION_DAYS after a job ended the sweep deletes its items, keeping the job row
 *   with their counts (its progress); its result (per player) is gone then.
 */
import { createHash, randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, gt, lte, sql } from "drizzle-orm";
import { rowsOf } from "../../db";
import { inTextList, type OffersDatabase, type OffersExecutor } from "../db";
import { bulkCompensationItems, bulkCompensations, players, type BulkItemCounts } from "../db/schema";
import { OffersError } from "../errors";
import { publicGameId } from "../environments";
import {
  BULK_LIMIT_IN_WORDS,
  BULK_MAX_PLAYERS,
  BULK_SAMPLE_SIZE,
  type AudienceRule,
  type BulkCompensation,
  type BulkJobStatus,
  type BulkPlayers,
  type BulkPreview,
  type Reward,
  type RewardKind,
} from "../contract";
import { audienceSql } from "../targeting/audience-sql";
import { parseIdList, RESULT_CSV_HEADER, resultCsvLine } from "./bulk-rules";
import { decisionRefusal, SUPPORT_GRANT_PENDING_MS } from "./four-eyes";
import { knownReward } from "./support-grants";
import type { EngineCore } from "./types";

export type BulkJobRow = typeof bulkCompensations.$inferSelect;

export interface BulkAsk {
  gameId: string;
  kind: RewardKind;
  rewardId: string;
  amount: number;
  reason: string;
  actor: string;
  players: BulkPlayers;
  idempotencyKey?: string;
}

export interface BulkOutcome {
  job: BulkJobRow;
  replayed: boolean;
}

/** Ids read from the database per statement (a parameter array each). */
const LOOKUP_CHUNK = 10_000;
/** Item rows per insert statement (3 parameters each, well under PostgreSQL's 65,535). */
const INSERT_CHUNK = 5_000;

interface Resolved {
  preview: BulkPreview;
  reward: Reward;
  known: string[];
  unknown: string[];
}

async function knownPlayers(db: OffersExecutor, gameId: string, ids: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
    const rows = await db
      .select({ playerId: players.playerId })
      .from(players)
      .where(and(eq(players.gameId, gameId), inTextList(players.playerId, ids.slice(i, i + LOOKUP_CHUNK))));
    for (const row of rows) known.add(row.playerId);
  }
  return known;
}

async function audiencePlayers(db: OffersExecutor, gameId: string, rule: AudienceRule): Promise<string[]> {
  const rows = await db
    .select({ playerId: players.playerId })
    .from(players)
    .where(and(eq(players.gameId, gameId), audienceSql(rule)))
    .orderBy(asc(players.playerId))
    .limit(BULK_MAX_PLAYERS + 1);
  return rows.map((row) => row.playerId);
}

/** Who a job would grant and what (nothing is written): the preview, the players to grant and the unknown ids. */
export async function resolveBulk(core: EngineCore, ask: Omit<BulkAsk, "idempotencyKey">): Promise<Resolved> {
  const { gameId } = ask;
  if (!(await core.gameSettings(gameId)).exists) throw new OffersError("game-not-found", gameId);
  const reward = await knownReward(core, gameId, ask.kind, ask.rewardId, ask.amount);
  const tooMany = () => new OffersError("bulk-too-many-players", `one compensation takes ${BULK_LIMIT_IN_WORDS}; split the list`);
  let known: string[];
  let unknown: string[] = [];
  let report = { invalid: 0, invalidSample: [] as BulkPreview["invalidSample"], duplicates: 0, duplicateSample: [] as BulkPreview["duplicateSample"] };
  if ("list" in ask.players) {
    const parsed = parseIdList(ask.players.list);
    if (parsed.tooMany) throw tooMany();
    const found = await knownPlayers(core.db, gameId, parsed.ids);
    known = parsed.ids.filter((id) => found.has(id));
    unknown = parsed.ids.filter((id) => !found.has(id));
    report = parsed;
  } else {
    known = await audiencePlayers(core.db, gameId, ask.players.audience);
    if (known.length > BULK_MAX_PLAYERS) throw tooMany();
  }
  const preview: BulkPreview = {
    players: known.length,
    totalAmount: known.length * ask.amount,
    kind: reward.kind,
    rewardId: reward.rewardId,
    name: reward.name,
    amount: ask.amount,
    invalid: report.invalid,
    invalidSample: report.invalidSample,
    duplicates: report.duplicates,
    duplicateSample: report.duplicateSample,
    unknown: unknown.length,
    unknownSample: unknown.slice(0, BULK_SAMPLE_SIZE),
  };
  return { preview, reward, known, unknown };
}

function fingerprintOf(ask: BulkAsk): string {
  const who = "list" in ask.players ? ["list", createHash("sha256").update(ask.players.list).digest("base64url")] : ["audience", ask.players.audience];
  return createHash("sha256").update(JSON.stringify(["bulk-compensation", ask.kind, ask.rewardId, ask.amount, ask.reason, ask.actor.toLowerCase(), who])).digest("base64url");
}

async function byKey(db: OffersExecutor, gameId: string, key: string): Promise<BulkJobRow | undefined> {
  const [row] = await db.select().from(bulkCompensations).where(and(eq(bulkCompensations.gameId, gameId), eq(bulkCompensations.idempotencyKey, key)));
  return row;
}

function replayOf(earlier: BulkJobRow, fingerprint: string): BulkOutcome {
  if (earlier.fingerprint !== fingerprint) throw new OffersError("idempotency-key-reused", "this Idempotency-Key was sent with another bulk compensation");
  return { job: earlier, replayed: true };
}

/**
 * Asks for a bulk compensation: stored pending (always four eyes) with its items, in one
 * transaction. With an Idempotency-Key already used, the first job is answered (the same request)
 * or idempotency-key-reused; a job of nobody is refused (bulk-no-players), changing nothing.
 */
export async function requestBulkCompensation(core: EngineCore, ask: BulkAsk): Promise<BulkOutcome> {
  const fingerprint = fingerprintOf(ask);
  if (ask.idempotencyKey !== undefined) {
    const earlier = await byKey(core.db, ask.gameId, ask.idempotencyKey);
    if (earlier) return replayOf(earlier, fingerprint);
  }
  const { preview, reward, known, unknown } = await resolveBulk(core, ask);
  if (known.length === 0) throw new OffersError("bulk-no-players", "none of these players is a player of this game environment: nothing to grant");
  const now = core.clock.now();
  const jobId = `bc_${randomUUID().replaceAll("-", "")}`;
  const stored = await core.db.transaction(async (tx) => {
    const [job] = await tx
      .insert(bulkCompensations)
      .values({
        jobId,
        gameId: ask.gameId,
        source: "list" in ask.players ? "list" : "audience",
        audience: "audience" in ask.players ? ask.players.audience : null,
        reward,
        reason: ask.reason,
        requestedBy: ask.actor,
        status: "pending",
        preview,
        idempotencyKey: ask.idempotencyKey ?? null,
        fingerprint,
        createdAt: now,
        expiresAt: new Date(now.getTime() + SUPPORT_GRANT_PENDING_MS),
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    // The same key committed by a concurrent request (a double click on two instances): answer it.
    if (!job) return null;
    const items = [...known.map((playerId) => ({ playerId, outcome: "pending" as const })), ...unknown.map((playerId) => ({ playerId, outcome: "unknown" as const }))];
    for (let i = 0; i < items.length; i += INSERT_CHUNK) {
      await tx.insert(bulkCompensationItems).values(items.slice(i, i + INSERT_CHUNK).map((item) => ({ jobId, ...item })));
    }
    return job;
  });
  if (stored) return { job: stored, replayed: false };
  const earlier = await byKey(core.db, ask.gameId, ask.idempotencyKey!);
  if (!earlier) throw new Error("bulk compensation neither stored nor found by its key");
  return replayOf(earlier, fingerprint);
}

export async function bulkJob(db: OffersExecutor, gameId: string, jobId: string): Promise<BulkJobRow> {
  const [job] = await db.select().from(bulkCompensations).where(and(eq(bulkCompensations.gameId, gameId), eq(bulkCompensations.jobId, jobId)));
  if (!job) throw new OffersError("bulk-job-not-found", jobId);
  return job;
}

/** A job whose per-player result is still kept; refused once the retention sweep deleted it. */
export async function bulkJobWithResult(db: OffersExecutor, gameId: string, jobId: string): Promise<BulkJobRow> {
  const job = await bulkJob(db, gameId, jobId);
  if (job.itemsDeletedAt) {
    throw new OffersError("bulk-result-deleted", `the per-player result of ${jobId} was deleted on ${job.itemsDeletedAt.toISOString()}, after the retention period; its counts remain`);
  }
  return job;
}

/** A pending job past its time to be decided (its status as people read it is expired). */
function statusOf(job: Pick<BulkJobRow, "status" | "expiresAt">, now: Date): BulkJobStatus {
  return job.status === "pending" && job.expiresAt !== null && job.expiresAt <= now ? "expired" : job.status;
}

/** The four-eyes rules of single grants, applied to a job (only its pending state matters to them). */
function refusalOf(job: BulkJobRow, actor: string, now: Date) {
  return decisionRefusal({ status: job.status === "pending" ? "pending" : "granted", requestedBy: job.requestedBy, expiresAt: job.expiresAt }, actor, now);
}

/**
 * Approves (the job starts running) or rejects a pending job: one conditional update (pending, not
 * stale, not the requester), so of concurrent decisions on any instances exactly one wins; the same
 * decision by the same person again answers the first.
 */
export async function decideBulkCompensation(core: EngineCore, d: { gameId: string; jobId: string; decision: "approve" | "reject"; actor: string; reason?: string }): Promise<BulkOutcome> {
  const now = core.clock.now();
  const target: BulkJobStatus = d.decision === "approve" ? "running" : "rejected";
  const [decided] = await core.db
    .update(bulkCompensations)
    .set({ status: target, decidedBy: d.actor, decisionReason: d.reason ?? null, decidedAt: now, updatedAt: now, ...(target === "rejected" ? { finishedAt: now } : {}) })
    .where(
      and(
        eq(bulkCompensations.gameId, d.gameId),
        eq(bulkCompensations.jobId, d.jobId),
        eq(bulkCompensations.status, "pending"),
        gt(bulkCompensations.expiresAt, now),
        sql`lower(${bulkCompensations.requestedBy}) <> lower(${d.actor})`,
      ),
    )
    .returning();
  if (decided) return { job: decided, replayed: false };
  const current = await bulkJob(core.db, d.gameId, d.jobId);
  const sameDecision = d.decision === "approve" ? current.decidedAt !== null && current.status !== "rejected" && current.status !== "expired" : current.status === "rejected";
  if (sameDecision && current.decidedBy?.toLowerCase() === d.actor.toLowerCase()) return { job: current, replayed: true };
  const refusal = refusalOf(current, d.actor, now);
  if (refusal === "same-person") throw new OffersError("four-eyes-same-person", "a bulk compensation is approved or rejected by someone other than the person who asked for it");
  if (refusal === "expired") throw new OffersError("bulk-job-expired", `${d.jobId} waited too long for a decision; ask again if it is still due`);
  throw new OffersError("bulk-job-decided", `${d.jobId} is already ${statusOf(current, now)}`);
}

/**
 * Cancels a pending or running job: takes the job row FOR UPDATE (waiting for the batches in
 * flight, which hold it FOR SHARE), marks it cancelled and its pending items cancelled. Granted
 * players stay granted. Cancelling a cancelled job again answers it.
 */
export async function cancelBulkCompensation(core: EngineCore, c: { gameId: string; jobId: string; actor: string; reason: string }): Promise<BulkOutcome> {
  return core.db.transaction(async (tx) => {
    const [job] = await tx
      .select()
      .from(bulkCompensations)
      .where(and(eq(bulkCompensations.gameId, c.gameId), eq(bulkCompensations.jobId, c.jobId)))
      .for("update");
    if (!job) throw new OffersError("bulk-job-not-found", c.jobId);
    const now = core.clock.now();
    if (job.status === "cancelled") return { job, replayed: true };
    if (statusOf(job, now) !== "pending" && job.status !== "running") throw new OffersError("bulk-job-finished", `${c.jobId} is already ${statusOf(job, now)}`);
    const [cancelled] = await tx
      .update(bulkCompensations)
      .set({ status: "cancelled", cancelledBy: c.actor, cancelReason: c.reason, finishedAt: now, updatedAt: now })
      .where(eq(bulkCompensations.jobId, c.jobId))
      .returning();
    await tx
      .update(bulkCompensationItems)
      .set({ outcome: "cancelled" })
      .where(and(eq(bulkCompensationItems.jobId, c.jobId), eq(bulkCompensationItems.outcome, "pending")));
    return { job: cancelled!, replayed: false };
  });
}

type Counts = BulkItemCounts;

async function countsOf(db: OffersExecutor, jobIds: readonly string[]): Promise<Map<string, Counts>> {
  const out = new Map<string, Counts>();
  if (jobIds.length === 0) return out;
  const rows = await db
    .select({ jobId: bulkCompensationItems.jobId, outcome: bulkCompensationItems.outcome, n: count() })
    .from(bulkCompensationItems)
    .where(inTextList(bulkCompensationItems.jobId, jobIds))
    .groupBy(bulkCompensationItems.jobId, bulkCompensationItems.outcome);
  for (const id of jobIds) out.set(id, { pending: 0, granted: 0, cancelled: 0, unknown: 0 });
  for (const row of rows) out.get(row.jobId)![row.outcome] = Number(row.n);
  return out;
}

function toBulkCompensation(job: BulkJobRow, counts: Counts, now: Date): BulkCompensation {
  return {
    jobId: job.jobId,
    gameId: publicGameId(job.gameId),
    source: job.source,
    reason: job.reason,
    requestedBy: job.requestedBy,
    status: statusOf(job, now),
    preview: job.preview,
    progress: { granted: counts.granted, remaining: counts.pending, cancelled: counts.cancelled, total: counts.granted + counts.pending + counts.cancelled },
    decidedBy: job.decidedBy,
    decisionReason: job.decisionReason,
    cancelledBy: job.cancelledBy,
    requestedAt: job.createdAt.toISOString(),
    decidedAt: job.decidedAt?.toISOString() ?? null,
    expiresAt: job.status === "pending" ? (job.expiresAt?.toISOString() ?? null) : null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
    resultDeletedAt: job.itemsDeletedAt?.toISOString() ?? null,
  };
}

/** Jobs as the API answers them, with their progress counted from their items (or as counted before the items were deleted). */
export async function describeBulkJobs(db: OffersExecutor, jobs: readonly BulkJobRow[], now: Date): Promise<BulkCompensation[]> {
  const counts = await countsOf(db, jobs.filter((j) => j.itemsDeletedAt === null).map((j) => j.jobId));
  return jobs.map((job) => toBulkCompensation(job, job.itemsDeletedAt !== null && job.itemCounts ? job.itemCounts : counts.get(job.jobId)!, now));
}

/** Pending and not stale: what waits for a second person. */
const waiting = (now: Date) => and(eq(bulkCompensations.status, "pending"), gt(bulkCompensations.expiresAt, now));

export async function listBulkCompensations(
  db: OffersDatabase,
  gameId: string,
  now: Date,
  filter: { status?: BulkJobStatus; limit: number },
): Promise<{ jobs: BulkJobRow[]; pending: number }> {
  const byStatus =
    filter.status === undefined
      ? undefined
      : filter.status === "pending"
        ? waiting(now)
        : filter.status === "expired"
          ? sql`(${bulkCompensations.status} = 'expired' or (${bulkCompensations.status} = 'pending' and ${bulkCompensations.expiresAt} <= ${now.toISOString()}))`
          : eq(bulkCompensations.status, filter.status);
  const jobs = await db
    .select()
    .from(bulkCompensations)
    .where(and(eq(bulkCompensations.gameId, gameId), byStatus))
    .orderBy(desc(bulkCompensations.createdAt), desc(bulkCompensations.jobId))
    .limit(filter.limit);
  const [pending] = await db.select({ n: count() }).from(bulkCompensations).where(and(eq(bulkCompensations.gameId, gameId), waiting(now)));
  return { jobs, pending: Number(pending?.n ?? 0) };
}

/** The sweep: stores `expired` on pending jobs past their time (reads already show them expired). */
export async function expireBulkCompensations(core: EngineCore): Promise<number> {
  const now = core.clock.now();
  const expired = await core.db
    .update(bulkCompensations)
    .set({ status: "expired", finishedAt: now, updatedAt: now })
    .where(and(eq(bulkCompensations.status, "pending"), lte(bulkCompensations.expiresAt, now)))
    .returning({ jobId: bulkCompensations.jobId });
  return expired.length;
}

/** Jobs that have ended: their items change no more. */
const ENDED = ["done", "cancelled", "rejected", "expired"] as const;

/**
 * The retention sweep of bulk compensations' items: jobs that ended before `endedBefore` get their
 * items' counts stored on the job row and are marked, then the items of marked jobs are deleted, at
 * most `limit` rows per call (a job of a million players takes several sweeps; its progress reads
 * the stored counts from the start). Answers the items deleted.
 */
export async function deleteEndedBulkItems(db: OffersExecutor, endedBefore: Date, now: Date, limit: number): Promise<number> {
  const cutoff = endedBefore.toISOString();
  const at = now.toISOString();
  await db.execute(sql`
    update ${bulkCompensations} j set items_deleted_at = ${at}, updated_at = ${at},
      item_counts = (select jsonb_build_object(
          'pending', count(*) filter (where i.outcome = 'pending'),
          'granted', count(*) filter (where i.outcome = 'granted'),
          'cancelled', count(*) filter (where i.outcome = 'cancelled'),
          'unknown', count(*) filter (where i.outcome = 'unknown'))
        from ${bulkCompensationItems} i where i.job_id = j.job_id)
    where j.items_deleted_at is null and j.finished_at < ${cutoff}::timestamptz and j.status in (${sql.join(
      ENDED.map((s) => sql`${s}`),
      sql`, `,
    )})`);
  const deleted = rowsOf(
    await db.execute(sql`
      delete from ${bulkCompensationItems} where (job_id, player_id) in (
        select i.job_id, i.player_id from ${bulkCompensationItems} i
        join ${bulkCompensations} j on j.job_id = i.job_id
        where j.items_deleted_at is not null
        limit ${limit})
      returning job_id`),
  );
  return deleted.length;
}

/** A job's result as CSV (playerId, outcome, grantId), in player id order, page by page (a million rows never sit in memory). */
export async function* bulkResultCsv(db: OffersExecutor, jobId: string, pageSize = 5_000): AsyncGenerator<string> {
  yield RESULT_CSV_HEADER;
  let after: string | null = null;
  for (;;) {
    const rows: Array<{ playerId: string; outcome: string; grantId: string | null }> = await db
      .select({ playerId: bulkCompensationItems.playerId, outcome: bulkCompensationItems.outcome, grantId: bulkCompensationItems.grantId })
      .from(bulkCompensationItems)
      .where(and(eq(bulkCompensationItems.jobId, jobId), after === null ? undefined : gt(bulkCompensationItems.playerId, after)))
      .orderBy(asc(bulkCompensationItems.playerId))
      .limit(pageSize);
    if (rows.length === 0) return;
    yield rows.map(resultCsvLine).join("");
    after = rows[rows.length - 1]!.playerId;
  }
}
