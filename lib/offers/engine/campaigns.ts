/** The campaigns read (the hot read path): a player's offers, snapshot and currency data, after due transitions. */
import DataLoader from "dataloader";
import { eq, sql } from "drizzle-orm";
import { driverRowDecoder } from "../../db";
import type { OffersDatabase } from "../db";
import { games, offerInstances, players } from "../db/schema";
import { settle } from "./settle";
import { anyWouldSurface, surfaceMatchingIn } from "./surfacing";
import { campaignsNeedWrite, OPEN, viewingTransition, visibleOffers } from "./slots";
import { allInstances, moveThrough, withPlayerTransaction, type MoveStep, type PlayerTx } from "./transaction";
import type { EngineCore, InstanceRow, PlayerRow, PlayerView } from "./types";
import { emptySnapshot, playerDataOf, snapshotOf, toOffer } from "./views";

const playerFromJson = driverRowDecoder(players);
const instanceFromJson = driverRowDecoder(offerInstances);

/** Players per campaigns statement at most; more reads in one turn go out as several statements, on as many connections. */
export const READ_BATCH = 32;

/** What the campaigns read answers for one player: null when the game is unknown. */
export type CampaignRead = { player: PlayerRow | null; offers: InstanceRow[] } | null;

/**
 * The read of every campaigns fetch, built once (a named statement on PostgreSQL: parsed and planned
 * once per connection): for each (game, player) asked, the player's row and all their instances, in
 * assignment order, in one statement. Reads asked in the same turn of the event loop share one
 * statement (up to READ_BATCH players): under load that is one round trip, one pooled connection
 * and one execution for many players instead of one each. An unknown game answers null.
 */
export function preparedCampaignReads(db: OffersDatabase) {
  const statement = campaignReadQuery(db).prepare("offers_read_campaigns");
  const loader = new DataLoader<{ gameId: string; playerId: string }, CampaignRead>(
    async (keys) => {
      const answers: CampaignRead[] = keys.map(() => null);
      const rows = await statement.execute({ gameIds: keys.map((key) => key.gameId), playerIds: keys.map((key) => key.playerId) });
      for (const row of rows) answers[row.at - 1] = { player: row.player, offers: row.offers };
      return answers;
    },
    // Once per turn of the event loop, after its I/O callbacks: the requests read in that turn.
    { cache: false, maxBatchSize: READ_BATCH, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
  );
  return {
    playerAndOffers: (gameId: string, playerId: string): Promise<CampaignRead> => loader.load({ gameId, playerId }),
  };
}

export type CampaignReads = ReturnType<typeof preparedCampaignReads>;

/** The campaigns read as a query, before it is prepared (a test reads its generic plan). */
export function campaignReadQuery(db: OffersDatabase) {
  return db
    .select({
      at: sql<number>`k.at`.mapWith(Number),
      player: sql<PlayerRow | null>`(select row_to_json(${players}) from ${players} where ${players.gameId} = k.game_id and ${players.playerId} = k.player_id)`.mapWith(
        playerFromJson,
      ),
      offers: sql<InstanceRow[]>`(select coalesce(json_agg(${offerInstances} order by ${offerInstances.createdAt}, ${offerInstances.instanceId}), '[]') from ${offerInstances} where ${offerInstances.gameId} = k.game_id and ${offerInstances.playerId} = k.player_id)`.mapWith(
        (rows: Record<string, unknown>[]) => rows.map(instanceFromJson),
      ),
    })
    .from(sql`unnest(${sql.placeholder("gameIds")}::text[], ${sql.placeholder("playerIds")}::text[]) with ordinality as k(game_id, player_id, at)`)
    .innerJoin(games, eq(games.gameId, sql`k.game_id`));
}

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
  const [read, settings, candidates] = await Promise.all([
    reads.playerAndOffers(gameId, playerId),
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
