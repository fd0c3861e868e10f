/**
 * The runner of approved bulk compensations (./bulk-compensation): on every instance it takes batches
 * of a running job's pending items FOR UPDATE SKIP LOCKED, so instances share a job and a job left
 * running by a crash continues at the next poll; each batch grants its players in one transaction.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { rowsOf } from "../../db";
import { inTextList, type OffersExecutor } from "../db";
import { bulkCompensationItems, bulkCompensations, rewardEvents, rewardLedger } from "../db/schema";
import { bulkGrantId } from "./bulk-rules";
import { CoalescingLoop } from "./coalescing-loop";
import type { EngineCore } from "./types";

/**
 * One batch of a running job, in one transaction: the job held FOR SHARE (still running), up to
 * `size` pending items taken FOR UPDATE SKIP LOCKED (another runner takes others), each player's
 * ledger row and reward.granted event, the items marked granted. Answers how many were granted,
 * (and how many items it took), or null when the job is no longer running.
 */
export async function grantBulkBatch(core: EngineCore, jobId: string, size: number): Promise<{ gameId: string; taken: number; granted: number } | null> {
  return core.db.transaction(async (tx) => {
    const [job] = await tx.select().from(bulkCompensations).where(eq(bulkCompensations.jobId, jobId)).for("share");
    if (!job || job.status !== "running") return null;
    const items = await tx
      .select({ playerId: bulkCompensationItems.playerId })
      .from(bulkCompensationItems)
      .where(and(eq(bulkCompensationItems.jobId, jobId), eq(bulkCompensationItems.outcome, "pending")))
      .orderBy(asc(bulkCompensationItems.playerId))
      .limit(size)
      .for("update", { skipLocked: true });
    if (items.length === 0) return { gameId: job.gameId, taken: 0, granted: 0 };
    const now = core.clock.now();
    const rewards = [job.reward];
    const ledger = await tx
      .insert(rewardLedger)
      .values(items.map(({ playerId }) => ({ gameId: job.gameId, playerId, sourceKind: "support" as const, sourceId: bulkGrantId(jobId, playerId), rewards, grantedAt: now })))
      .onConflictDoNothing()
      .returning({ playerId: rewardLedger.playerId });
    // A ledger row already there would mean the player was granted by this job before: no second event.
    if (ledger.length > 0) {
      await tx.insert(rewardEvents).values(
        ledger.map(({ playerId }) => ({
          gameId: job.gameId,
          playerId,
          sourceKind: "support" as const,
          sourceId: bulkGrantId(jobId, playerId),
          rewards,
          source: "support" as const,
          actor: job.requestedBy,
          approvedBy: job.decidedBy,
          reason: job.reason,
          occurredAt: now,
        })),
      );
    }
    await tx
      .update(bulkCompensationItems)
      .set({ outcome: "granted", grantId: sql`${bulkCompensationItems.jobId} || ':' || ${bulkCompensationItems.playerId}`, grantedAt: now })
      .where(and(eq(bulkCompensationItems.jobId, jobId), inTextList(bulkCompensationItems.playerId, items.map((i) => i.playerId))));
    return { gameId: job.gameId, taken: items.length, granted: ledger.length };
  });
}

/** Marks a running job done when no item is pending (items another runner holds still read pending, so it finishes them first). */
export async function finishBulkIfDone(core: EngineCore, jobId: string): Promise<boolean> {
  const now = core.clock.now().toISOString();
  const result = await core.db.execute(sql`
    update ${bulkCompensations} set status = 'done', finished_at = ${now}, updated_at = ${now}
    where job_id = ${jobId} and status = 'running'
      and not exists (select 1 from ${bulkCompensationItems} i where i.job_id = ${jobId} and i.outcome = 'pending')
    returning job_id`);
  return rowsOf(result).length > 0;
}

export async function runningBulkJobs(db: OffersExecutor, limit = 20): Promise<string[]> {
  const rows = await db.select({ jobId: bulkCompensations.jobId }).from(bulkCompensations).where(eq(bulkCompensations.status, "running")).orderBy(asc(bulkCompensations.createdAt)).limit(limit);
  return rows.map((r) => r.jobId);
}

/** The longest idle sleep of the runner, in polls (as the delivery worker's, ../delivery/rounds.ts). */
export const IDLE_BACKOFF_POLLS = 16;

export interface BulkRunnerOptions {
  /** Players per transaction (default 500). */
  batchSize?: number;
  /** Transactions in flight at once (default 4; PGlite runs them one by one anyway). */
  concurrency?: number;
  /** Called after each batch with the game whose reward.granted events were committed (the delivery worker wakes on it). */
  onGranted?: (gameId: string) => void;
  /** Stops a run after this many batches (tests stop a runner mid-job with it). */
  maxBatches?: number;
}

/** Runs every running bulk compensation of the database, sharing the work with the runners of other instances. */
export class BulkCompensationRunner {
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly loop: CoalescingLoop;

  constructor(
    private readonly core: EngineCore,
    private readonly options: BulkRunnerOptions = {},
  ) {
    this.batchSize = Math.max(1, options.batchSize ?? 500);
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    // Idle, it polls less and less often: only another instance's approval or a job a crash left
    // running waits for a poll; an approval here wakes it.
    this.loop = new CoalescingLoop({ run: () => this.runJobs(), onError: (error) => core.onError(error), idleBackoffPolls: IDLE_BACKOFF_POLLS });
  }

  /** Polls for running jobs every `pollMs`, and up to IDLE_BACKOFF_POLLS polls apart while there is none, until stop(). */
  start(pollMs: number): void {
    this.loop.start(pollMs);
  }

  /** Runs now (or once more after the current run): after this instance approved a job. */
  wake(): void {
    this.loop.wake();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  private get stopped(): boolean {
    return this.loop.stopped;
  }

  /** One run of the loop: answers whether there was a running job (else the runner is idle). */
  private async runJobs(): Promise<boolean> {
    const jobs = await runningBulkJobs(this.core.db);
    if (jobs.length > 0) await this.runOnce(jobs);
    return jobs.length > 0;
  }

  /** Works through every running job until none has pending items this runner can take; answers the players granted. */
  async runOnce(jobs?: string[]): Promise<number> {
    let granted = 0;
    let batches = 0;
    for (const jobId of jobs ?? (await runningBulkJobs(this.core.db))) {
      for (;;) {
        if (this.stopped) return granted;
        if (this.options.maxBatches !== undefined && batches >= this.options.maxBatches) return granted;
        const lanes = Math.min(this.concurrency, this.options.maxBatches === undefined ? this.concurrency : this.options.maxBatches - batches);
        const results = await Promise.all(Array.from({ length: lanes }, () => grantBulkBatch(this.core, jobId, this.batchSize)));
        batches += lanes;
        const given = results.reduce((sum, r) => sum + (r?.granted ?? 0), 0);
        granted += given;
        const gameId = results.find((r) => r !== null)?.gameId;
        if (given > 0 && gameId) this.options.onGranted?.(gameId);
        if (results.some((r) => r === null)) break;
        if (results.every((r) => r!.taken === 0)) {
          await finishBulkIfDone(this.core, jobId);
          break;
        }
        // Let requests in between (on PGlite every query resolves in-process).
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return granted;
  }
}

