/** The campaigns read (the hot read path): a player's offers, snapshot and currency data, after due transitions. */
import { and, asc, eq, sql } from "drizzle-orm";
import type { OffersDatabase } from "../db";
import { offerInstances, players } from "../db/schema";
import { settle } from "./settle";
import { anyWouldSurface, surfaceMatchingIn } from "./surfacing";
import { campaignsNeedWrite, viewingTransition, visibleOffers } from "./slots";
import { allInstances, move, openInstances, withPlayerTransaction, type PlayerTx } from "./transaction";
import type { EngineCore, PlayerRow, PlayerView } from "./types";
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

/** Viewing, inside the player's transaction: surfaced offers become viewed, viewed ones without conditions claimable. */
export async function viewOffersIn(unit: PlayerTx): Promise<void> {
  for (const row of await openInstances(unit)) {
    let current = row;
    for (let step = viewingTransition(current); step; step = viewingTransition(current)) {
      const moved = await move(unit, current, step.to, step.to, step.cause);
      if (moved === current) break; // moved meanwhile (defensive): leave it
      current = moved;
    }
  }
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
      await settle(unit, options.viewing ? "viewingCampaigns" : "fetch");
      // A player without a snapshot yet is not evaluated (an unknown player is not an audience member).
      if (player) await surfaceMatchingIn(unit, candidates);
      if (options.viewing) await viewOffersIn(unit);
      return { all: await allInstances(unit), player: unit.player };
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
