/**
 * Surfacing jobs: when a targeted definition becomes active, is edited while active, or its window
 * opens, every player of the game that has a snapshot is evaluated once against that version.
 *
 * - One job per (definition, version), queued in the same transaction as the change (or by the
 *   ticker when a window opens), so no activation is missed and none runs twice.
 * - A job is leased by one runner at a time (`FOR UPDATE SKIP LOCKED`, lease renewed with each page),
 *   so instances sharing the database share jobs without running one twice; a crashed runner's lease
 *   runs out and another resumes from the job's cursor (players are walked in id order).
 * - Players are assigned through the same per-player transaction and rules as any other surfacing
 *   (./surfacing): a page re-run after a crash assigns nothing twice.
 * - The database pre-filters each page with the audience and rollout as SQL (../targeting/audience-sql).
 * pg-boss needs Node 22 and graphile-worker does not run on PGlite, hence this small table.
 */
import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { rowsOf } from "../../db";
import { inTextList, type OffersExecutor } from "../db";
import { offerDefinitions, offerInstances, players, surfacingJobs } from "../db/schema";
import { audienceSql, rolloutSql } from "../targeting/audience-sql";
import { CoalescingLoop } from "./coalescing-loop";
import { definitionRow } from "./definitions";
import { settle } from "./settle";
import { surfaceMatchingIn } from "./surfacing";
import { withPlayersTransaction } from "./transaction";
import { OPEN } from "./slots";
import type { DefinitionRow, EngineCore, TargetingCandidates } from "./types";

export type SurfacingJobRow = typeof surfacingJobs.$inferSelect;
export type SurfacingJobReason = SurfacingJobRow["reason"];

const PENDING = ["queued", "running"] as const;

/** Whether a version of a definition surfaces by itself now (active, targeted, inside its window). */
export function surfacesNow(row: Pick<DefinitionRow, "status" | "audience" | "startsAt" | "endsAt">, now: Date): boolean {
  return row.status === "active" && row.audience !== null && (!row.startsAt || row.startsAt <= now) && (!row.endsAt || row.endsAt > now);
}

/**
 * In the transaction that wrote `row`: when this version surfaces now, queue its job (pending jobs
 * of older versions are superseded). Answers the job, or null when none was needed.
 */
export async function queueSurfacingJobIn(tx: OffersExecutor, row: DefinitionRow, reason: SurfacingJobReason, now: Date): Promise<SurfacingJobRow | null> {
  await tx
    .update(surfacingJobs)
    .set({ status: "superseded", finishedAt: now, updatedAt: now, lockedBy: null, lockedUntil: null })
    .where(and(eq(surfacingJobs.gameId, row.gameId), eq(surfacingJobs.offerId, row.offerId), inArray(surfacingJobs.status, [...PENDING]), lt(surfacingJobs.definitionVersion, row.version)));
  if (!surfacesNow(row, now)) return null;
  const [job] = await tx
    .insert(surfacingJobs)
    .values({ gameId: row.gameId, offerId: row.offerId, definitionVersion: row.version, reason, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  return job ?? null;
}

/** Queues the job of every active targeted version whose window is open and that has none yet (windows that opened). */
export async function queueOpenedWindows(db: OffersExecutor, now: Date): Promise<number> {
  const at = now.toISOString();
  const result = await db.execute(sql`
    insert into ${surfacingJobs} (game_id, offer_id, definition_version, reason, created_at, updated_at)
    select d.game_id, d.offer_id, d.version, 'window-opened', ${at}, ${at}
    from ${offerDefinitions} d
    where d.status = 'active' and d.audience is not null
      and d.starts_at is not null and d.starts_at <= ${at} and (d.ends_at is null or d.ends_at > ${at})
      and not exists (select 1 from ${surfacingJobs} j where j.game_id = d.game_id and j.offer_id = d.offer_id and j.definition_version = d.version)
    on conflict do nothing
    returning id`);
  return rowsOf(result).length;
}

export async function listSurfacingJobs(db: OffersExecutor, gameId: string, offerId: string, limit = 20): Promise<SurfacingJobRow[]> {
  return db
    .select()
    .from(surfacingJobs)
    .where(and(eq(surfacingJobs.gameId, gameId), eq(surfacingJobs.offerId, offerId)))
    .orderBy(desc(surfacingJobs.id))
    .limit(limit);
}

export interface SurfacingJobRunnerOptions {
  /** Names this runner in leases (default: a random id per process). */
  workerId?: string;
  /** How long a claimed job stays this runner's without progress (default 30 s). */
  leaseMs?: number;
  /** Players read per page (default 500). */
  pageSize?: number;
  /** Transactions in flight at once (default 4; PGlite runs them one by one anyway). */
  concurrency?: number;
  /** Players per transaction (default 50). */
  batchSize?: number;
  /** Called after each page (progress) and when a job ends. */
  onProgress?: (job: SurfacingJobRow) => void;
  /** Stops a run after this many pages (tests simulate a crash with it). */
  maxPages?: number;
  /** Runs inside each batch's transaction just before it commits (tests let a concurrent change land there). */
  beforeBatchCommit?: () => Promise<void>;
}

/** Runs queued surfacing jobs: claim one, walk its players page by page, finish; again while there are jobs. */
export class SurfacingJobRunner {
  readonly workerId: string;
  private readonly leaseMs: number;
  private readonly pageSize: number;
  private readonly concurrency: number;
  private readonly batchSize: number;
  private readonly loop: CoalescingLoop;

  constructor(
    private readonly core: EngineCore,
    private readonly options: SurfacingJobRunnerOptions = {},
  ) {
    this.workerId = options.workerId ?? `runner-${randomUUID()}`;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pageSize = options.pageSize ?? 500;
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.batchSize = Math.max(1, options.batchSize ?? 50);
    // Polls steadily, idle or not: each poll also opens scheduled offers' windows, on time.
    this.loop = new CoalescingLoop({ run: () => this.runJobs(), onError: (error) => core.onError(error) });
  }

  /** Polls for jobs (and for windows that opened) every `pollMs` until stop(). */
  start(pollMs: number): void {
    this.loop.start(pollMs);
  }

  /** Runs now (or once more after the current run): after this instance queued a job. */
  wake(): void {
    this.loop.wake();
  }

  /** Stops polling and waits for the page in progress; the job's lease lets another runner resume it. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  private get stopped(): boolean {
    return this.loop.stopped;
  }

  /** One run of the loop: queues the windows that opened, then runs jobs while there are; answers whether one ran. */
  private async runJobs(): Promise<boolean> {
    await queueOpenedWindows(this.core.db, this.core.clock.now());
    let ran = false;
    while (!this.stopped && (await this.runOnce())) ran = true;
    return ran;
  }

  /** Claims one job (queued, or running under an expired lease) and runs it; answers whether there was one. */
  async runOnce(): Promise<boolean> {
    const job = await this.claim();
    if (!job) return false;
    await this.run(job);
    return true;
  }

  private async claim(): Promise<SurfacingJobRow | null> {
    const now = this.core.clock.now();
    const at = now.toISOString();
    const until = new Date(now.getTime() + this.leaseMs).toISOString();
    const result = await this.core.db.execute(sql`
      update ${surfacingJobs} set status = 'running', locked_by = ${this.workerId}, locked_until = ${until},
        attempts = attempts + 1, started_at = coalesce(started_at, ${at}), updated_at = ${at}
      where id = (
        select id from ${surfacingJobs}
        where status in ('queued', 'running') and (locked_until is null or locked_until < ${at})
        order by id limit 1 for update skip locked)
      returning id`);
    const [claimed] = rowsOf<{ id: number | string }>(result);
    if (!claimed) return null;
    const [job] = await this.core.db.select().from(surfacingJobs).where(eq(surfacingJobs.id, Number(claimed.id)));
    return job ?? null;
  }

  /** Writes the job's progress if this runner still holds it; answers the row, or null when the lease was lost. */
  private async progress(job: SurfacingJobRow, set: Partial<SurfacingJobRow>): Promise<SurfacingJobRow | null> {
    const now = this.core.clock.now();
    const [row] = await this.core.db
      .update(surfacingJobs)
      .set({ ...set, lockedUntil: set.status && set.status !== "running" ? null : new Date(now.getTime() + this.leaseMs), updatedAt: now })
      .where(and(eq(surfacingJobs.id, job.id), eq(surfacingJobs.lockedBy, this.workerId), eq(surfacingJobs.status, "running")))
      .returning();
    if (row) this.options.onProgress?.(row);
    return row ?? null;
  }

  private finish(job: SurfacingJobRow, status: "done" | "superseded" | "failed", error?: string) {
    return this.progress(job, { status, finishedAt: this.core.clock.now(), lockedBy: null, ...(error ? { error } : {}) });
  }

  private async run(claimed: SurfacingJobRow): Promise<void> {
    let job: SurfacingJobRow | null = claimed;
    const { gameId, offerId, definitionVersion } = claimed;
    if (job.playersTotal === null) {
      const [total] = await this.core.db.select({ n: count() }).from(players).where(eq(players.gameId, gameId));
      job = await this.progress(job, { playersTotal: Number(total?.n ?? 0) });
    }
    let pages = 0;
    while (job && !this.stopped) {
      const definition = await definitionRow(this.core.db, gameId, offerId);
      const now = this.core.clock.now();
      if (!definition || definition.version !== definitionVersion) {
        await this.finish(job, "superseded");
        return;
      }
      // Paused, archived or its window closed meanwhile: nothing more to give for this version.
      if (!surfacesNow(definition, now)) {
        await this.finish(job, "done");
        return;
      }
      if (this.options.maxPages !== undefined && pages >= this.options.maxPages) return;
      const page = await this.readPage(definition, job.cursor);
      if (page.length === 0) {
        await this.finish(job, "done");
        return;
      }
      const matching = page.filter((p) => p.candidate).map((p) => p.playerId);
      const batches: string[][] = [];
      for (let i = 0; i < matching.length; i += this.batchSize) batches.push(matching.slice(i, i + this.batchSize));
      let activations = 0;
      for (let i = 0; i < batches.length; i += this.concurrency) {
        const given = await Promise.all(batches.slice(i, i + this.concurrency).map((batch) => this.surfaceBatch(definition, batch)));
        activations += given.reduce((a, b) => a + b, 0);
        // Let requests in between: on PGlite every query resolves in-process, and a job's chain of
        // promises would otherwise hold the event loop until the job ends.
        await new Promise((resolve) => setImmediate(resolve));
      }
      pages += 1;
      job = await this.progress(job, {
        cursor: page[page.length - 1].playerId,
        playersEvaluated: job.playersEvaluated + page.length,
        activations: job.activations + activations,
      });
    }
  }

  /**
   * One transaction over a batch of players (./transaction withPlayersTransaction): the definition is
   * read again inside it and stays locked until commit, then each player is settled and evaluated by
   * the same per-player operations as a snapshot push. Answers the activations.
   *
   * The lock is what makes a pause (or an edit) win: committed before the read, the batch sees it and
   * gives nothing; arriving after it, the pause waits for the batch's commit. A plain read would let
   * a batch that read "active" commit its activations after the pause was answered. A share lock lets
   * the batches of one job run at once; a limited stock takes the row for update while counting
   * (./surfacing), so those take it for update from the start rather than upgrade a shared lock.
   */
  private surfaceBatch(read: DefinitionRow, playerIds: string[]): Promise<number> {
    return withPlayersTransaction(this.core, read.gameId, playerIds, async (units, tx) => {
      const definition = await definitionRow(tx, read.gameId, read.offerId, { lock: read.maxClaimsTotal === null ? "share" : "update" });
      if (!definition || definition.version !== read.version || !surfacesNow(definition, units[0]?.now ?? this.core.clock.now())) return 0;
      const candidates: TargetingCandidates = { definitions: [definition], reserved: new Map() };
      const only = { offerId: definition.offerId, version: definition.version };
      // The batch's instances in one read, settled player by player without reading them again.
      const instances = await tx
        .select()
        .from(offerInstances)
        .where(and(eq(offerInstances.gameId, definition.gameId), inTextList(offerInstances.playerId, units.map((u) => u.playerId))))
        .orderBy(asc(offerInstances.createdAt), asc(offerInstances.instanceId));
      let given = 0;
      for (const unit of units) {
        const mine = instances.filter((row) => row.playerId === unit.playerId);
        const settled = await settle(unit, "rule", mine.filter((row) => OPEN.includes(row.status)));
        const history = [...mine.filter((row) => !OPEN.includes(row.status)), ...settled];
        given += (await surfaceMatchingIn(unit, candidates, { only, current: true, history })).length;
      }
      await this.options.beforeBatchCommit?.();
      return given;
    });
  }

  /** The next page of the game's players after the cursor, each marked whether the audience and rollout hold (in SQL). */
  private async readPage(definition: DefinitionRow, cursor: string | null): Promise<Array<{ playerId: string; candidate: boolean }>> {
    const rows = await this.core.db
      .select({
        playerId: players.playerId,
        candidate: sql<boolean>`(${audienceSql(definition.audience!)}) and (${rolloutSql(definition.rollout, definition.gameId, definition.offerId)})`,
      })
      .from(players)
      .where(and(eq(players.gameId, definition.gameId), cursor === null ? undefined : gt(players.playerId, cursor)))
      .orderBy(asc(players.playerId))
      .limit(this.pageSize);
    return rows;
  }
}

/** Jobs not finished, the age of the oldest and the players they have left (the metrics read it at scrape time). */
export async function surfacingBacklog(db: OffersExecutor, now: Date): Promise<{ queued: number; running: number; lagSeconds: number; playersRemaining: number }> {
  const [row] = rowsOf<{ queued: string | number; running: string | number; oldest: string | Date | null; remaining: string | number | null }>(
    await db.execute(sql`
      select count(*) filter (where status = 'queued') as queued,
             count(*) filter (where status = 'running') as running,
             min(created_at) as oldest,
             sum(greatest(coalesce(players_total, 0) - players_evaluated, 0)) as remaining
      from ${surfacingJobs} where status in ('queued', 'running')`),
  );
  const oldest = row?.oldest ? new Date(row.oldest) : null;
  return {
    queued: Number(row?.queued ?? 0),
    running: Number(row?.running ?? 0),
    lagSeconds: oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0,
    playersRemaining: Number(row?.remaining ?? 0),
  };
}
