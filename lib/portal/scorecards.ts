/**
 * Scorecards as the portal shows them: the rules in force and the levels of the catalog (derived from
 * the commit each instance serves: lib/catalog/scorecards.ts), an owner's or group's rollup (the owner
 * page calls levelsOf), and the trend: a snapshot per UTC day kept in the portal database.
 *
 * The time-based rules read facts (each component's last release, its oldest open review): every instance
 * reads them from the portal database and source control every few minutes (scheduleScorecards), so
 * instances agree once each has read them.
 *
 * A day is taken once whatever the number of instances: the instance whose insert of the day's row in
 * scorecard_snapshot_days succeeds writes that day's rows in the same transaction; the others find the
 * day taken and write nothing. A failure rolls the whole day back, so the next attempt takes it again.
 */
import "server-only";
import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { Catalog } from "../catalog/catalog";
import { dayOf, emptyRollup, NO_LEVEL, type LevelRollup, type ScorecardFacts, type ScorecardRules } from "../catalog/scorecards";
import type { ConfigRepository } from "./gitops/config-repo";
import { componentReleases } from "./db/schema/scm";
import type { PortalDatabase } from "./db/database";
import { scorecardComponentDays, scorecardGroupDays, scorecardSnapshotDays } from "./db/schema/scorecards";

/** Rows per insert statement of a snapshot's groups. */
const INSERT_BATCH = 1000;
/** Components per statement of the daily snapshot (columns as arrays: a few parameters whatever the count). */
const COMPONENT_DAYS_BATCH = 20_000;
/** Days of trend a page shows by default. */
export const TREND_DAYS = 30;

export interface ScorecardOverview {
  rules: ScorecardRules;
  /** Components per level over the whole catalog, with the mean score. */
  rollup: LevelRollup;
  /** The config repository commit the levels were computed at. */
  commit: string | null;
}

export function scorecardOverview(catalog: Catalog): ScorecardOverview {
  return { rules: catalog.scorecardRules, rollup: catalog.levelRollup(), commit: catalog.loadedCommit };
}

function bitsCount(n: number): number {
  let c = 0;
  for (let x = n >>> 0; x; x &= x - 1) c++;
  return c;
}

/** Every owner group's rollup (groups lowercased, as the catalog filters them). */
function groupRollups(catalog: Catalog): Map<string, LevelRollup> {
  const members = new Map<string, string[]>();
  for (const entry of catalog.entries()) {
    const groups = new Set(entry.component.spec.owners.flatMap((o) => (o.group ? [o.group.toLowerCase()] : [])));
    for (const g of groups) {
      let list = members.get(g);
      if (!list) members.set(g, (list = []));
      list.push(entry.name);
    }
  }
  return new Map([...members].map(([g, names]) => [g, catalog.levelRollup(names)]));
}

/** The UTC day of `now` (YYYY-MM-DD). */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export type SnapshotOutcome = { taken: true; day: string; components: number; groups: number } | { taken: false; day: string };

/** The facts the time-based rules read, as of `now`: last release per component, oldest open review per component. */
export async function readScorecardFacts(db: PortalDatabase, config: Pick<ConfigRepository, "openMergeRequests">, now = new Date()): Promise<ScorecardFacts> {
  const releases = await db
    .select({ component: componentReleases.component, at: sql<string | Date>`max(${componentReleases.releasedAt})` })
    .from(componentReleases)
    .groupBy(componentReleases.component);
  const lastRelease = new Map(releases.map((r) => [r.component, new Date(r.at).getTime()]));
  const oldestOpenReview = new Map<string, number>();
  for (const mr of await config.openMergeRequests()) {
    // portal/<component>/…: a review of that component (record, config) proposed in the portal.
    const m = /^portal\/([^/]+)\//.exec(mr.sourceBranch);
    const at = Date.parse(mr.createdAt);
    if (!m || Number.isNaN(at)) continue;
    const was = oldestOpenReview.get(m[1]);
    if (was === undefined || at < was) oldestOpenReview.set(m[1], at);
  }
  return { today: dayOf(now.getTime()), lastRelease, oldestOpenReview };
}

/** Takes the day's snapshot unless some instance already took it. */
export async function takeDailyScorecardSnapshot(db: PortalDatabase, catalog: Catalog, now = new Date()): Promise<SnapshotOutcome> {
  const day = utcDay(now);
  const rules = catalog.scorecardRules;
  const entries = catalog.entries();
  const groups = groupRollups(catalog);
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(scorecardSnapshotDays)
      .values({ day, commit: catalog.loadedCommit, levels: [...rules.levels] })
      .onConflictDoNothing()
      .returning({ day: scorecardSnapshotDays.day });
    if (claimed.length === 0) return { taken: false, day } as const;
    // Columns as arrays, one parameter each (unnest): a statement of 1,000 rows' 5,000 parameters cost Drizzle
    // and the embedded database seconds at 100,000 components, while the transaction held the connection
    // every request of the instance waits for.
    const names: string[] = [];
    const levels: Array<string | null> = [];
    const passed: number[] = [];
    const totals: number[] = [];
    for (const e of entries) {
      const bits = catalog.scorecards.get(e.name);
      names.push(e.name);
      levels.push(bits && bits.level >= 0 ? rules.levels[bits.level] : null);
      passed.push(bits ? bitsCount(bits.passed) : 0);
      totals.push(bits ? bitsCount(bits.applies) : 0);
    }
    for (let i = 0; i < names.length; i += COMPONENT_DAYS_BATCH) {
      const part = (list: unknown[]) => sql.param(list.slice(i, i + COMPONENT_DAYS_BATCH));
      await tx.execute(sql`
        insert into ${scorecardComponentDays} (day, component_name, level, passed, total)
        select ${day}::date, c.name, c.level, c.passed, c.total
        from unnest(${part(names)}::text[], ${part(levels)}::text[], ${part(passed)}::int[], ${part(totals)}::int[]) as c(name, level, passed, total)
        on conflict do nothing`);
    }
    const groupRows = [...groups].map(([groupName, r]) => ({ day, groupName, levels: r.levels, score: r.score }));
    for (let i = 0; i < groupRows.length; i += INSERT_BATCH) await tx.insert(scorecardGroupDays).values(groupRows.slice(i, i + INSERT_BATCH)).onConflictDoNothing();
    return { taken: true, day, components: names.length, groups: groupRows.length } as const;
  });
}

export interface TrendPoint {
  day: string;
  /** The level reached that day (null below the lowest level). */
  level: string | null;
  /** Its rank that day: 0 below the lowest level, 1 for the lowest, … (for a chart). */
  rank: number;
  passed: number;
  total: number;
}

/** A component's levels over the last `days` days (oldest first), as snapshotted. */
export async function componentTrend(db: PortalDatabase, name: string, now = new Date(), days = TREND_DAYS): Promise<TrendPoint[]> {
  const since = utcDay(new Date(now.getTime() - (days - 1) * 86_400_000));
  const rows = await db
    .select({ day: scorecardComponentDays.day, level: scorecardComponentDays.level, passed: scorecardComponentDays.passed, total: scorecardComponentDays.total, levels: scorecardSnapshotDays.levels })
    .from(scorecardComponentDays)
    .innerJoin(scorecardSnapshotDays, eq(scorecardSnapshotDays.day, scorecardComponentDays.day))
    .where(and(eq(scorecardComponentDays.componentName, name), gte(scorecardComponentDays.day, since)))
    .orderBy(asc(scorecardComponentDays.day));
  return rows.map((r) => ({ day: r.day, level: r.level, rank: r.level ? r.levels.indexOf(r.level) + 1 : 0, passed: r.passed, total: r.total }));
}

export interface GroupTrendPoint {
  day: string;
  levels: Record<string, number>;
  score: number | null;
}

/** A group's components per level over the last `days` days (oldest first). */
export async function groupTrend(db: PortalDatabase, group: string, now = new Date(), days = TREND_DAYS): Promise<GroupTrendPoint[]> {
  const since = utcDay(new Date(now.getTime() - (days - 1) * 86_400_000));
  const rows = await db
    .select({ day: scorecardGroupDays.day, levels: scorecardGroupDays.levels, score: scorecardGroupDays.score })
    .from(scorecardGroupDays)
    .where(and(eq(scorecardGroupDays.groupName, group.toLowerCase()), gte(scorecardGroupDays.day, since)))
    .orderBy(asc(scorecardGroupDays.day));
  return rows.map((r) => ({ day: r.day, levels: { [NO_LEVEL]: 0, ...r.levels }, score: r.score }));
}

/** Drops snapshots older than `keepDays` (the trend pages read 30; a year is kept by default). */
export async function pruneScorecardSnapshots(db: PortalDatabase, now = new Date(), keepDays = 400): Promise<void> {
  const before = utcDay(new Date(now.getTime() - keepDays * 86_400_000));
  await db.transaction(async (tx) => {
    await tx.delete(scorecardComponentDays).where(sql`${scorecardComponentDays.day} < ${before}`);
    await tx.delete(scorecardGroupDays).where(sql`${scorecardGroupDays.day} < ${before}`);
    await tx.delete(scorecardSnapshotDays).where(sql`${scorecardSnapshotDays.day} < ${before}`);
  });
}

/**
 * Every `everyMs` (default five minutes) and at start: reads the facts of the time-based rules into the
 * catalog, then takes the day's snapshot unless this process already saw it taken. Failures are logged and
 * retried at the next tick.
 */
export function scheduleScorecards(deps: () => Promise<{ db: PortalDatabase; catalog: Catalog; config: Pick<ConfigRepository, "openMergeRequests"> }>, everyMs = 300_000): () => void {
  let running = false;
  let takenDay: string | null = null;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const { db, catalog, config } = await deps();
      try {
        catalog.setScorecardFacts(await readScorecardFacts(db, config));
      } catch (error) {
        console.warn(`[portal] scorecard facts (releases, open reviews) could not be read (${(error as Error).message}); the last ones stay`);
      }
      if (takenDay !== utcDay(new Date())) {
        const outcome = await takeDailyScorecardSnapshot(db, catalog);
        takenDay = outcome.day;
        if (outcome.taken) {
          console.log(`[portal] scorecard snapshot of ${outcome.day}: ${outcome.components} components, ${outcome.groups} groups`);
          await pruneScorecardSnapshots(db);
        }
      }
    } catch (error) {
      console.warn(`[portal] the scorecard snapshot could not be taken (${(error as Error).message}); trying again in ${Math.round(everyMs / 60_000)} min`);
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** One owned component's level, for the owner page's Level column. */
export interface ComponentLevel {
  level: string | null;
  passed: number;
  total: number;
}

/** The levels of `names` (those the catalog holds) and their rollup: what the owner page shows beside its list. */
export function levelsOf(catalog: Catalog, names: readonly string[]): { levels: readonly string[]; byName: Map<string, ComponentLevel>; rollup: LevelRollup } {
  const rules = catalog.scorecardRules;
  const byName = new Map<string, ComponentLevel>();
  for (const name of names) {
    const bits = catalog.scorecards.get(name);
    if (!bits) continue;
    byName.set(name, { level: bits.level >= 0 ? rules.levels[bits.level] : null, passed: bitsCount(bits.passed), total: bitsCount(bits.applies) });
  }
  return { levels: rules.levels, byName, rollup: byName.size ? catalog.levelRollup([...byName.keys()]) : emptyRollup(rules) };
}
