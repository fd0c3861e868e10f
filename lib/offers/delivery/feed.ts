/**
 * The ledger feed (GET /v1/rewards/events): a game's reward.granted events in commit order.
 *
 * Serial ids are handed out when a row is inserted, not when its transaction commits, so a reader
 * paging by id would skip a row whose transaction committed after a later id was read. Each row
 * keeps its transaction id (xid8); a transaction below the oldest one still running
 * (pg_snapshot_xmin of the reading statement's snapshot) has ended, and no later transaction can
 * get an id that low, so the rows below it are final. The feed serves only those, ordered by
 * (xid, id); the cursor is the last (xid, id) served. Same rule for the delivery fan-out.
 */
import { sql } from "drizzle-orm";
import { fromDriverRow, rowsOf } from "../../db";
import type { OffersExecutor } from "../db";
import { rewardEvents } from "../db/schema";
import { OffersError } from "../errors";
import type { RewardFeedResponse } from "../schemas";
import { toRewardGrantedEvent, type RewardEventRow } from "./events";

/** A position in commit order: the (xid, id) of the last row read. */
export interface FeedPosition {
  xid: string;
  id: number;
}

export const FEED_START: FeedPosition = { xid: "0", id: 0 };

const CURSOR_VERSION = "r1";
const MAX_XID8 = 2n ** 64n - 1n;

/** Opaque to callers: base64url of "r1.<xid>.<id>". */
export function encodeCursor(position: FeedPosition): string {
  return Buffer.from(`${CURSOR_VERSION}.${position.xid}.${position.id}`).toString("base64url");
}

export function decodeCursor(cursor: string): FeedPosition {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  const match = /^r1\.(0|[1-9]\d{0,19})\.(0|[1-9]\d{0,18})$/.exec(text);
  const id = match ? Number(match[2]) : NaN;
  // Transaction ids are 64-bit unsigned: a larger number was not written by us (and PostgreSQL would refuse the cast).
  if (!match || !Number.isSafeInteger(id) || BigInt(match[1]!) > MAX_XID8) throw new OffersError("invalid-cursor", "pass the `next` of an earlier page unchanged");
  return { xid: match[1]!, id };
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

export async function readFeed(db: OffersExecutor, gameId: string, after: string | undefined, limit: number): Promise<RewardFeedResponse> {
  const from = after === undefined ? FEED_START : decodeCursor(after);
  const rows = await finalEventsAfter(db, gameId, from, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    events: page.map(toRewardGrantedEvent),
    next: encodeCursor(last ? { xid: last.xid, id: last.id } : from),
    hasMore: rows.length > limit,
  };
}
