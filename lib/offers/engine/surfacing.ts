/**
 * Offers that surface by themselves: a game's active targeted definitions (status active, with an
 * audience) are evaluated against a player inside that player's transaction — on a snapshot push,
 * a campaigns fetch, and by surfacing jobs — and each match is assigned under the slot rules with
 * cause `rule`. Exactly once per activation because everything about a player runs under the
 * player's row lock (the open-instance, activation and cooldown checks see every earlier write), and
 * a limited stock is counted under the definition's row lock.
 */
import { and, asc, count, eq, gt, ne, notInArray, or, sql, type SQL } from "drizzle-orm";
import { inTextList, type OffersExecutor } from "../db";
import { offerDefinitions, offerInstances } from "../db/schema";
import { isEligible, type EligibilityInput } from "../targeting/eligibility";
import { insertInstances } from "./assignment";
import { EXPIRABLE, OPEN } from "./slots";
import { allInstances, type PlayerTx } from "./transaction";
import type { DefinitionRow, InstanceRow, PlayerRow, TargetingCandidates } from "./types";

/**
 * The instances that hold (or used) a unit of a definition's stock at `now`: every one but those
 * expired, counted by their deadline rather than their stored status — an overdue offer is expired
 * already, whether or not a settle or the periodic sweep has written it yet (the slot rule isOverdue).
 */
export function holdsStock(now: Date): SQL {
  return and(
    ne(offerInstances.status, "expired"),
    or(notInArray(offerInstances.status, [...EXPIRABLE]), gt(offerInstances.expiresAt, now)),
  )!;
}

/** Active definitions with an audience whose window has not closed. */
export async function loadTargetingCandidates(db: OffersExecutor, gameId: string, now: Date): Promise<TargetingCandidates> {
  const definitions = await db
    .select()
    .from(offerDefinitions)
    .where(
      and(
        eq(offerDefinitions.gameId, gameId),
        eq(offerDefinitions.status, "active"),
        sql`${offerDefinitions.audience} is not null`,
        sql`(${offerDefinitions.endsAt} is null or ${offerDefinitions.endsAt} > ${now.toISOString()})`,
      ),
    );
  definitions.sort((a, b) => b.priority - a.priority || a.offerId.localeCompare(b.offerId));
  const limited = definitions.filter((d) => d.maxClaimsTotal !== null).map((d) => d.offerId);
  const reserved = new Map<string, number>();
  if (limited.length) {
    const rows = await db
      .select({ offerId: offerInstances.offerId, n: count() })
      .from(offerInstances)
      .where(and(eq(offerInstances.gameId, gameId), inTextList(offerInstances.offerId, limited), holdsStock(now)))
      .groupBy(offerInstances.offerId);
    for (const row of rows) reserved.set(row.offerId, Number(row.n));
  }
  return { definitions, reserved };
}

function eligibilityOf(definition: DefinitionRow, player: PlayerRow, history: readonly InstanceRow[], now: Date, reserved?: number): EligibilityInput {
  return { definition, playerId: player.playerId, snapshot: player, history, now, reserved };
}

/**
 * Whether any candidate would surface for the player as read (no lock): the campaigns read takes
 * the player's lock only then. A stock seen exhausted when the candidates were loaded counts as
 * exhausted, so a sold-out offer does not send every fetch down the write path.
 */
export function anyWouldSurface(candidates: TargetingCandidates, player: PlayerRow | undefined, rows: readonly InstanceRow[], now: Date): boolean {
  if (!player) return false;
  return candidates.definitions.some((d) => isEligible(eligibilityOf(d, player, rows, now, candidates.reserved.get(d.offerId) ?? 0)));
}

/** The definitions as stored now: re-read in one statement (limited stocks locked), or taken as given when `fresh`. */
async function currentDefinitions(unit: PlayerTx, eligible: readonly DefinitionRow[], fresh: boolean): Promise<Map<string, DefinitionRow>> {
  const limited = eligible.filter((d) => d.maxClaimsTotal !== null).map((d) => d.offerId);
  const unlimited = eligible.filter((d) => d.maxClaimsTotal === null);
  const rows: DefinitionRow[] = fresh ? [...unlimited] : [];
  const read = (ids: string[]) =>
    unit.tx.select().from(offerDefinitions).where(and(eq(offerDefinitions.gameId, unit.gameId), inTextList(offerDefinitions.offerId, ids)));
  if (!fresh && unlimited.length) rows.push(...(await read(unlimited.map((d) => d.offerId))));
  // Stock counts need the row lock; in offerId order, so two players' transactions lock alike.
  if (limited.length) rows.push(...(await read(limited.sort()).orderBy(asc(offerDefinitions.offerId)).for("update")));
  return new Map(rows.map((row) => [row.offerId, row]));
}

/** Instances of a definition across the game that hold or used a unit of its stock (holdsStock). */
export async function reservedCount(db: OffersExecutor, gameId: string, offerId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(offerInstances)
    .where(and(eq(offerInstances.gameId, gameId), eq(offerInstances.offerId, offerId), holdsStock(now)));
  return Number(row?.n ?? 0);
}

/**
 * Assigns, in the player's transaction, every candidate the player matches now (call after settle).
 * A candidate is re-read as stored before it is given (the candidates may be a few seconds old): a
 * definition paused or changed meanwhile is judged as it is now (`current`: the caller read the
 * candidates in this transaction already). Answers the new instances.
 */
export async function surfaceMatchingIn(
  unit: PlayerTx,
  candidates: TargetingCandidates,
  options: { only?: { offerId: string; version: number }; current?: boolean; history?: InstanceRow[] } = {},
): Promise<InstanceRow[]> {
  const { only } = options;
  if (candidates.definitions.length === 0) return [];
  // Every instance of the player, as of now in this transaction (read here unless the caller has).
  const history: InstanceRow[] = options.history ? [...options.history] : await allInstances(unit);
  const now = unit.now;
  const eligible = candidates.definitions.filter(
    (candidate) => (!only || candidate.offerId === only.offerId) && isEligible(eligibilityOf(candidate, unit.player, history, now), { skipStock: true }),
  );
  if (eligible.length === 0) return [];
  // The stored definitions (unless the caller read them in this transaction): the candidates may be
  // a few seconds old. Those with a limited stock are locked, so their count stays true until commit.
  const stored = await currentDefinitions(unit, eligible, options.current === true);
  const chosen: DefinitionRow[] = [];
  for (const candidate of eligible) {
    const current = stored.get(candidate.offerId);
    if (!current || (only && current.version !== only.version)) continue;
    const reserved = current.maxClaimsTotal !== null ? await reservedCount(unit.tx, unit.gameId, current.offerId, now) : 0;
    if (isEligible(eligibilityOf(current, unit.player, history, now, reserved))) chosen.push(current);
  }
  const created = await insertInstances(unit, chosen, history.filter((row) => OPEN.includes(row.status)), { cause: "rule" });
  return created;
}
