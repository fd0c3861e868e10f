/** The offers database's table of player activity (re-exported by ./schema, which drizzle-kit reads). */
import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { PlayerActivity } from "../contract";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** What an activity row says beyond its kind: a snapshot's size, or a stream's instance and duration. */
export interface PlayerActivityDetail {
  /** snapshot: top-level fields pushed, and the request's size in bytes as parsed (JSON). */
  fields?: number;
  bytes?: number;
  /** stream-opened, stream-closed: the instance that held the stream. */
  instance?: string;
  /** stream-opened: the client sent Last-Event-ID (it resumed). */
  resumed?: boolean;
  /** stream-closed: how long it was open, and why it closed. */
  openMs?: number;
  reason?: string;
}

/**
 * Things that happened to a player that no other table keeps, for the timeline: snapshots pushed and
 * event streams opened and closed. Keyed by the tenant like offers_events (a test environment's rows
 * carry its own game_id); deleted after OFFERS_ACTIVITY_RETENTION_DAYS.
 */
export const playerActivity = pgTable(
  "offers_player_activity",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    gameId: text("game_id").notNull(),
    playerId: text("player_id").notNull(),
    kind: text("kind").$type<PlayerActivity>().notNull(),
    at: ts("at").notNull(),
    detail: jsonb("detail").$type<PlayerActivityDetail>().notNull().default({}),
  },
  (t) => [index("offers_player_activity_timeline_idx").on(t.gameId, t.playerId, t.at.desc(), t.id.desc()), index("offers_player_activity_at_idx").on(t.at)],
);
