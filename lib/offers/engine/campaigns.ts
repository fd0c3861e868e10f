/** The campaigns read (the hot read path): a player's offers, snapshot and currency data, after due transitions. */
import { and, asc, eq, sql } from "drizzle-orm";
import type { OffersDatabase } from "../db";
import { offerInstances, players } from "../db/schema";
import { settle } from "./settle";
import { anyWouldSurface, surfaceMatchingIn } from "./surfacing";
import { campaignsNeedWrite, OPEN, viewingTransition, visibleOffers } from "./slots";
import { allInstances, moveThrough, withPlayerTransaction, type MoveStep, type PlayerTx } from "./transaction";
import type { EngineCore, InstanceRow, PlayerRow, PlayerView } from "./types";
import { emptySnapshot, playerDataOf, snapshotOf, toOffer } from "./views";

/** The reads of every campaigns fetch, built once (named statements on PostgreSQL: parsed and planned once per connection). */
export function preparedCampaignReads(db: OffersDatabase) {
  const gameId = sql.placeholder("gameId");
  const playerId = sql.placeholder("playerId");
  return {
    player: db.select().from(players).where(and(eq(players.gameId, gameId), eq(players.playerId, playerId))).prepare("offers_read_player"),
    offers: db
      .select()
      .from(offerInstances)
      .where(and(eq(offerInstances.gameId, gameId), eq(offerInstances.playerId, playerId)))
      .orderBy(asc(offerInstances.createdAt), asc(offerInstances.instanceId))
      .prepare("offers_read_offers"),
  };
}

export type CampaignReads = ReturnType<typeof preparedCampaignReads>;

/**
 * Viewing, inside the player's transaction: surfaced offers become viewed, viewed ones without
 * conditions claimable (both steps in one update, each recorded). `open`: the player's open offers
 * as of now in this transaction, in assignment order. Answers them after.
 */
export async function viewOffersIn(unit: PlayerTx, open: readonly InstanceRow[]): Promise<InstanceRow[]> {
  const after: InstanceRow[] = [];
  for (const row of open) {
    const steps: MoveStep[] = [];
    let status = row.status;
    for (let step = viewingTransition(row); step; step = viewingTransition({ ...row, status })) {
      steps.push({ to: step.to, type: step.to, cause: step.cause });
      status = step.to;
    }
    after.push(await moveThrough(unit, row, steps));
  }
  return after;
}

/**
 * With viewing, surfaced offers become viewed, and viewed offers without conditions become
 * claimable, in this same call. The client view omits inQueue offers; the server view lists all.
 */
export async function fetchCampaigns(
  core: EngineCore,
  reads: CampaignReads,
  gameId: string,
  playerId: string,
  options: { viewing: boolean; includeQueued: boolean },
): Promise<PlayerView> {
  const now = core.clock.now();
  // Fast path: a read without lock when nothing would change (the common case under load). The
  // player's rows and the game's settings are read at once; the settings come from a short cache.
  const [[player], initialRows, settings, candidates] = await Promise.all([
    reads.player.execute({ gameId, playerId }),
    reads.offers.execute({ gameId, playerId }),
    core.gameSettings(gameId),
    core.targetingCandidates(gameId),
  ]);
  let rows = initialRows;
  let current: PlayerRow | undefined = player;
  if (campaignsNeedWrite(rows, now, settings.maxOfferSlots, options.viewing) || anyWouldSurface(candidates, player, rows, now)) {
    const result = await withPlayerTransaction(core, gameId, playerId, async (unit) => {
      // One read of every instance under the lock; each step below hands on the rows it changed.
      const rows = new Map((await allInstances(unit)).map((row) => [row.instanceId, row]));
      const keep = (changed: readonly InstanceRow[]) => changed.forEach((row) => rows.set(row.instanceId, row));
      const open = () => [...rows.values()].filter((row) => OPEN.includes(row.status));
      keep(await settle(unit, options.viewing ? "viewingCampaigns" : "fetch", open()));
      // A player without a snapshot yet is not evaluated (an unknown player is not an audience member).
      if (player) keep(await surfaceMatchingIn(unit, candidates, { history: [...rows.values()] }));
      if (options.viewing) keep(await viewOffersIn(unit, open()));
      return { all: [...rows.values()], player: unit.player };
    });
    rows = result.all;
    current = result.player;
  }
  const snapshot = current ? snapshotOf(current) : emptySnapshot(gameId, playerId);
  return {
    snapshot,
    playerData: playerDataOf(snapshot, settings.currencies),
    offers: visibleOffers(rows, options.includeQueued).map(toOffer),
  };
}
