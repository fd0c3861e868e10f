/** The campaigns read (the hot read path): a player's offers, snapshot and currency data, after due transitions. */
import { eq, sql } from "drizzle-orm";
import { jsonRowDecoder, type OffersDatabase } from "../db";
import { games, offerInstances, players } from "../db/schema";
import { settle } from "./settle";
import { anyWouldSurface, surfaceMatchingIn } from "./surfacing";
import { campaignsNeedWrite, OPEN, viewingTransition, visibleOffers } from "./slots";
import { allInstances, moveThrough, withPlayerTransaction, type MoveStep, type PlayerTx } from "./transaction";
import type { EngineCore, InstanceRow, PlayerRow, PlayerView } from "./types";
import { emptySnapshot, playerDataOf, snapshotOf, toOffer } from "./views";

const playerFromJson = jsonRowDecoder(players);
const instanceFromJson = jsonRowDecoder(offerInstances);

/**
 * The read of every campaigns fetch, built once (a named statement on PostgreSQL: parsed and planned
 * once per connection): the player's row and all their instances in one statement, one round trip
 * and one pooled connection, the instances in assignment order. Read from the game's row, which
 * exists for every authenticated caller; an unknown game answers nothing.
 */
export function preparedCampaignReads(db: OffersDatabase) {
  const gameId = sql.placeholder("gameId");
  const playerId = sql.placeholder("playerId");
  return {
    playerAndOffers: db
      .select({
        player: sql<PlayerRow | null>`(select row_to_json(${players}) from ${players} where ${players.gameId} = ${gameId} and ${players.playerId} = ${playerId})`.mapWith(
          playerFromJson,
        ),
        offers: sql<InstanceRow[]>`(select coalesce(json_agg(${offerInstances} order by ${offerInstances.createdAt}, ${offerInstances.instanceId}), '[]') from ${offerInstances} where ${offerInstances.gameId} = ${gameId} and ${offerInstances.playerId} = ${playerId})`.mapWith(
          (rows: Record<string, unknown>[]) => rows.map(instanceFromJson),
        ),
      })
      .from(games)
      .where(eq(games.gameId, gameId))
      .prepare("offers_read_campaigns"),
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
  const [[read], settings, candidates] = await Promise.all([
    reads.playerAndOffers.execute({ gameId, playerId }),
    core.gameSettings(gameId),
    core.targetingCandidates(gameId),
  ]);
  const player = read?.player ?? undefined;
  let rows = read?.offers ?? [];
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
