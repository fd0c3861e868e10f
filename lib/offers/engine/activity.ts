/**
 * The player's activity log (offers_player_activity): event streams opened and closed, written in
 * batches by each instance's ActivityBuffer; snapshots are written by their push (./snapshots). Read by
 * the timeline; deleted by the sweep after OFFERS_ACTIVITY_RETENTION_DAYS.
 */
import { sql } from "drizzle-orm";
import { rowsOf } from "../../db";
import type { OffersDatabase } from "../db";
import type { PlayerActivity } from "../contract";
import type { PlayerActivityDetail } from "../db/schema";

export interface ActivityRecord {
  /** The tenant (stored game_id: a test environment's own). */
  gameId: string;
  playerId: string;
  kind: PlayerActivity;
  at: Date;
  detail: PlayerActivityDetail;
}

/** One statement for any number of rows: one array per column, zipped by unnest. */
export async function insertActivity(db: OffersDatabase, records: readonly ActivityRecord[]): Promise<void> {
  if (records.length === 0) return;
  // Each column one array parameter, serialised by the driver (quotes, commas and braces in ids stay data).
  const games = sql.param(records.map((r) => r.gameId));
  const players = sql.param(records.map((r) => r.playerId));
  const kinds = sql.param(records.map((r) => r.kind));
  const ats = sql.param(records.map((r) => r.at.toISOString()));
  const details = sql.param(records.map((r) => JSON.stringify(r.detail)));
  await db.execute(sql`
    insert into offers_player_activity (game_id, player_id, kind, at, detail)
    select g, p, k, a, d::jsonb from unnest(${games}::text[], ${players}::text[], ${kinds}::text[], ${ats}::timestamptz[], ${details}::text[]) as r(g, p, k, a, d)`);
}

/** Deletes activity older than `before`, at most `limit` rows a call (a first purge of a large log stays short). */
export async function purgeActivity(db: OffersDatabase, before: Date, limit: number): Promise<number> {
  const answer = await db.execute(sql`
    delete from offers_player_activity where id in (
      select id from offers_player_activity where at < ${before.toISOString()}::timestamptz limit ${limit})
    returning id`);
  return rowsOf<{ id: string }>(answer).length;
}
