/**
 * The ledger feed (GET /v1/rewards/events): a game's reward.granted events in commit order.
 *
 * Serial ids are handed out when a row is inserted, not when its transaction commits, so a reader
 * paging by id would skip a row whose transaction committed after a later id was read. Each row
 * keeps its transaction id (xid8); a transaction below the oldest one still running
 * (pg_snapshot_xmin of the reading statement's snapshot) has ended, and no later transaction can
 * get an id that low, so the rows below it are final. The feed serves only those, ordered by
 * (xid, id); the cursor is the last (xid, id) served, bound to the game and environment whose feed
 * it pages. Same rule for the delivery fan-out.
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { fromDriverRow, rowsOf } from "../../db";
import type { OffersExecutor } from "../db";
import { rewardEvents } from "../db/schema";
import { OffersError } from "../errors";
import type { RewardFeedResponse } from "../contract";
import { toRewardGrantedEvent, type RewardEventRow } from "./events";

/** A position in commit order: the (xid, id) of the last row read. */
export interface FeedPosition {
  xid: string;
  id: number;
}

export const FEED_START: FeedPosition = { xid: "0", id: 0 };

/** The settings row of the delivery fan-out's position in every game's events, "<xid>:<id>" (./queue moves it, ./delivery-log reads it). */
export const FANOUT_CURSOR = "webhook-fanout-cursor";

const MAX_XID8 = 2n ** 64n - 1n;
const NUMBERS = String.raw`(0|[1-9]\d{0,19})\.(0|[1-9]\d{0,18})`;
/** Written since cursors are bound to their feed: "r2.<xid>.<id>.<tag>". */
const CURSOR = new RegExp(String.raw`^r2\.${NUMBERS}\.([A-Za-z0-9_-]{16})$`);
/** Written before: "r1.<xid>.<id>", still read (its position must then be one of the feed's own rows). */
const LEGACY_CURSOR = new RegExp(String.raw`^r1\.${NUMBERS}$`);

/**
 * Binds a position to the feed of one tenant (game and environment): 12 bytes of SHA-256 over both.
 * Not a secret: a caller who forges a tag for its own feed can only name a position of that feed,
 * which it may read anyway, and readFeed refuses positions that are not one of its rows. What it
 * catches is a cursor of another game or environment, and a cursor damaged in storage.
 */
function tagOf(tenant: string, position: FeedPosition): string {
  return createHash("sha256").update(`offers-feed-cursor\0${tenant}\0${position.xid}.${position.id}`).digest().subarray(0, 12).toString("base64url");
}

/** Opaque to callers: base64url of "r2.<xid>.<id>.<tag>", valid on the tenant's feed only. */
export function encodeCursor(tenant: string, position: FeedPosition): string {
  return Buffer.from(`r2.${position.xid}.${position.id}.${tagOf(tenant, position)}`).toString("base64url");
}

const invalidCursor = (why: string) => new OffersError("invalid-cursor", `${why}: pass the \`next\` of an earlier page of this game and environment unchanged`);

/** The position of a cursor of this tenant's feed; invalid-cursor for anything else. */
export function decodeCursor(tenant: string, cursor: string): FeedPosition {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  const match = CURSOR.exec(text) ?? LEGACY_CURSOR.exec(text);
  const id = match ? Number(match[2]) : NaN;
  // Transaction ids are 64-bit unsigned: a larger number was not written by us (and PostgreSQL would refuse the cast).
  if (!match || !Number.isSafeInteger(id) || BigInt(match[1]!) > MAX_XID8) throw invalidCursor("not a cursor of the feed");
  const position = { xid: match[1]!, id };
  if (match[3] !== undefined && match[3] !== tagOf(tenant, position)) throw invalidCursor("a cursor of another game or environment, or altered");
  return position;
}

const isStart = (position: FeedPosition) => position.xid === FEED_START.xid && position.id === FEED_START.id;

/**
 * Whether a position is one the feed could have answered: the start, or one of the tenant's rows
 * from a transaction that has ended (the feed serves no other). Refuses a position past the feed's
 * end (a forged or legacy cursor, or one kept across a restore of an older backup), which would
 * otherwise answer empty pages while events pile up behind it.
 */
async function isFeedPosition(db: OffersExecutor, tenant: string, position: FeedPosition): Promise<boolean> {
  if (isStart(position)) return true;
  const result = await db.execute(sql`
    select 1 from offers_reward_events
    where id = ${position.id} and xid = ${position.xid}::xid8 and game_id = ${tenant}
      and xid < pg_snapshot_xmin(pg_current_snapshot())`);
  return rowsOf(result).length > 0;
}

/**
 * Rows after `after` in commit order, at most `limit`, only from transactions that have ended.
 * `gameId` null: every game (the fan-out).
 */
export async function finalEventsAfter(db: OffersExecutor, gameId: string | null, after: FeedPosition, limit: number): Promise<RewardEventRow[]> {
  const result = await db.execute(sql`
    select * from offers_reward_events
    where ${gameId === null ? sql`true` : sql`game_id = ${gameId}`}
      and (xid, id) > (${after.xid}::xid8, ${after.id}::bigint)
      and xid < pg_snapshot_xmin(pg_current_snapshot())
    order by xid, id
    limit ${limit}`);
  return rowsOf<Record<string, unknown>>(result).map((raw) => fromDriverRow(rewardEvents, raw));
}

/** A page of the tenant's feed (`gameId`: the stored game id, environment included) after a cursor of its own. */
export async function readFeed(db: OffersExecutor, gameId: string, after: string | undefined, limit: number): Promise<RewardFeedResponse> {
  const from = after === undefined ? FEED_START : decodeCursor(gameId, after);
  if (!(await isFeedPosition(db, gameId, from))) throw invalidCursor("a position this feed never reached");
  const rows = await finalEventsAfter(db, gameId, from, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    events: page.map(toRewardGrantedEvent),
    next: encodeCursor(gameId, last ? { xid: last.xid, id: last.id } : from),
    hasMore: rows.length > limit,
  };
}
