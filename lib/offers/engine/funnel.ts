/**
 * How a definition performs, computed from the offer history (offers_events, joined to the instances
 * for the offer and the variant): how many instances were assigned, and reached surfaced, viewed,
 * claimable, claimed and expired — overall, per day (UTC) and per variant — with conversion =
 * claimed ÷ surfaced, and for variants the difference in claim rate against the first variant with
 * a 95% interval, so noise can be told from a result.
 */
import { sql } from "drizzle-orm";
import { rowsOf } from "../../db";
import type { OffersExecutor } from "../db";
import { offerEvents, offerInstances } from "../db/schema";

export const FUNNEL_STAGES = ["assigned", "surfaced", "viewed", "claimable", "claimed", "expired"] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];
export type FunnelCounts = Record<FunnelStage, number> & { conversion: number | null };

export interface VariantComparison {
  variantId: string;
  /** The variant compared against (the definition's first variant). */
  baselineId: string;
  /** Claim rate (claimed ÷ surfaced) of the variant minus the baseline's; null without surfacings on either side. */
  difference: number | null;
  /** 95% interval of the difference (normal approximation of two proportions). */
  low: number | null;
  high: number | null;
  /** The interval excludes 0: unlikely to be noise. */
  significant: boolean;
}

export interface DefinitionFunnel {
  total: FunnelCounts;
  /** One row per UTC day of the window, oldest first, days without events included. */
  byDay: Array<{ day: string } & FunnelCounts>;
  variants: Array<{ variantId: string } & FunnelCounts>;
  comparisons: VariantComparison[];
}

const empty = (): Record<FunnelStage, number> => ({ assigned: 0, surfaced: 0, viewed: 0, claimable: 0, claimed: 0, expired: 0 });

export function withConversion(counts: Record<FunnelStage, number>): FunnelCounts {
  return { ...counts, conversion: counts.surfaced > 0 ? counts.claimed / counts.surfaced : null };
}

/** Difference of two claim rates with its 95% interval (Wald); pure, so it is tested on its own. */
export function compareRates(variant: { claimed: number; surfaced: number }, baseline: { claimed: number; surfaced: number }): Pick<VariantComparison, "difference" | "low" | "high" | "significant"> {
  if (variant.surfaced === 0 || baseline.surfaced === 0) return { difference: null, low: null, high: null, significant: false };
  const p1 = variant.claimed / variant.surfaced;
  const p0 = baseline.claimed / baseline.surfaced;
  const se = Math.sqrt((p1 * (1 - p1)) / variant.surfaced + (p0 * (1 - p0)) / baseline.surfaced);
  const difference = p1 - p0;
  const low = difference - 1.96 * se;
  const high = difference + 1.96 * se;
  return { difference, low, high, significant: se > 0 ? low > 0 || high < 0 : difference !== 0 };
}

/** Maps an event type to its funnel stage (`queued` is an assignment counted from the instances). */
const STAGE_OF: Record<string, FunnelStage | undefined> = { surfaced: "surfaced", viewed: "viewed", claimable: "claimable", claimed: "claimed", expired: "expired" };

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The funnel of one definition. `days`: the per-day window ending today (UTC, default 14);
 * `variantOrder`: the definition's variants in order (the first is the baseline of comparisons).
 */
export async function definitionFunnel(db: OffersExecutor, gameId: string, offerId: string, options: { now: Date; days?: number; variantOrder?: string[] }): Promise<DefinitionFunnel> {
  const days = options.days ?? 14;
  const since = new Date(Date.UTC(options.now.getUTCFullYear(), options.now.getUTCMonth(), options.now.getUTCDate() - (days - 1)));

  // Each instance reaches a stage at most once, so events per (variant, type) count instances.
  const byVariant = rowsOf<{ variant: string; stage: string; n: number | string }>(
    await db.execute(sql`
      select coalesce(i.variant_id, '') as variant, e.type as stage, count(*) as n
      from ${offerInstances} i join ${offerEvents} e on e.instance_id = i.instance_id
      where i.game_id = ${gameId} and i.offer_id = ${offerId}
      group by 1, 2
      union all
      select coalesce(i.variant_id, ''), 'assigned', count(*) from ${offerInstances} i
      where i.game_id = ${gameId} and i.offer_id = ${offerId}
      group by 1`),
  );
  const perDay = rowsOf<{ day: string | Date; stage: string; n: number | string }>(
    await db.execute(sql`
      select to_char(e.at at time zone 'UTC', 'YYYY-MM-DD') as day, e.type as stage, count(*) as n
      from ${offerInstances} i join ${offerEvents} e on e.instance_id = i.instance_id
      where i.game_id = ${gameId} and i.offer_id = ${offerId} and e.at >= ${since.toISOString()}
      group by 1, 2
      union all
      select to_char(i.created_at at time zone 'UTC', 'YYYY-MM-DD'), 'assigned', count(*) from ${offerInstances} i
      where i.game_id = ${gameId} and i.offer_id = ${offerId} and i.created_at >= ${since.toISOString()}
      group by 1`),
  );

  const total = empty();
  const variants = new Map<string, Record<FunnelStage, number>>();
  for (const row of byVariant) {
    const stage = row.stage === "assigned" ? "assigned" : STAGE_OF[row.stage];
    if (!stage) continue;
    const n = Number(row.n);
    total[stage] += n;
    if (row.variant) {
      const counts = variants.get(row.variant) ?? empty();
      counts[stage] += n;
      variants.set(row.variant, counts);
    }
  }
  const dayCounts = new Map<string, Record<FunnelStage, number>>();
  for (let i = 0; i < days; i++) dayCounts.set(dayOf(new Date(since.getTime() + i * 86_400_000)), empty());
  for (const row of perDay) {
    const stage = row.stage === "assigned" ? "assigned" : STAGE_OF[row.stage];
    const counts = dayCounts.get(String(row.day));
    if (stage && counts) counts[stage] += Number(row.n);
  }

  const order = [...(options.variantOrder ?? []), ...[...variants.keys()].filter((v) => !options.variantOrder?.includes(v)).sort()];
  const variantRows = order.map((variantId) => ({ variantId, ...withConversion(variants.get(variantId) ?? empty()) }));
  const baseline = variantRows[0];
  const comparisons: VariantComparison[] = baseline
    ? variantRows.slice(1).map((v) => ({ variantId: v.variantId, baselineId: baseline.variantId, ...compareRates(v, baseline) }))
    : [];
  return {
    total: withConversion(total),
    byDay: [...dayCounts].map(([day, counts]) => ({ day, ...withConversion(counts) })),
    variants: variantRows,
    comparisons,
  };
}

export interface DefinitionSummary {
  total: FunnelCounts;
  /** Claims per UTC day, oldest first, over the window (the list's sparkline). */
  claimsPerDay: number[];
}

/** Funnel totals and claims per day of every definition of a game (the definitions list), in two queries. */
export async function gameFunnels(db: OffersExecutor, gameId: string, options: { now: Date; days?: number }): Promise<Map<string, DefinitionSummary>> {
  const days = options.days ?? 14;
  const since = new Date(Date.UTC(options.now.getUTCFullYear(), options.now.getUTCMonth(), options.now.getUTCDate() - (days - 1)));
  const totals = rowsOf<{ offer: string; stage: string; n: number | string }>(
    await db.execute(sql`
      select i.offer_id as offer, e.type as stage, count(*) as n
      from ${offerInstances} i join ${offerEvents} e on e.instance_id = i.instance_id
      where i.game_id = ${gameId}
      group by 1, 2
      union all
      select i.offer_id, 'assigned', count(*) from ${offerInstances} i where i.game_id = ${gameId} group by 1`),
  );
  const claims = rowsOf<{ offer: string; day: string; n: number | string }>(
    await db.execute(sql`
      select i.offer_id as offer, to_char(e.at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as n
      from ${offerInstances} i join ${offerEvents} e on e.instance_id = i.instance_id
      where i.game_id = ${gameId} and e.type = 'claimed' and e.at >= ${since.toISOString()}
      group by 1, 2`),
  );
  const dayIndex = new Map<string, number>();
  for (let i = 0; i < days; i++) dayIndex.set(dayOf(new Date(since.getTime() + i * 86_400_000)), i);
  const counts = new Map<string, { total: Record<FunnelStage, number>; claimsPerDay: number[] }>();
  const entry = (offer: string) => {
    let e = counts.get(offer);
    if (!e) counts.set(offer, (e = { total: empty(), claimsPerDay: new Array<number>(days).fill(0) }));
    return e;
  };
  for (const row of totals) {
    const stage = row.stage === "assigned" ? "assigned" : STAGE_OF[row.stage];
    if (stage) entry(row.offer).total[stage] += Number(row.n);
  }
  for (const row of claims) {
    const i = dayIndex.get(row.day);
    if (i !== undefined) entry(row.offer).claimsPerDay[i] += Number(row.n);
  }
  return new Map([...counts].map(([offer, e]) => [offer, { total: withConversion(e.total), claimsPerDay: e.claimsPerDay }]));
}
