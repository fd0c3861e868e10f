/**
 * A player's timeline (admin API): offer transitions, rewards granted, their deliveries with every
 * attempt, support grants, and the player's activity (snapshots pushed, streams opened and closed),
 * newest first in one list. Each kind is one statement that reads at most
 * a page and one more of its own rows after the cursor; the page is their merge. The order is
 * (time, rank of the kind, id) descending, so a cursor of the last entry shown continues exactly there
 * whatever the kinds kept. Times are compared in whole microseconds, as stored.
 */
import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "../../db";
import type { OffersDatabase } from "../db";
import type { PlayerActivityDetail, StoredAttempt } from "../db/schema";
import type { PlayerActivity, Reward, RewardEventKind, RewardSource, TimelineEntry, TimelineKind, TimelinePage } from "../contract";
import { OffersError } from "../errors";

/**
 * At one instant, what comes after in cause comes first in the list (newest first): a delivery after the
 * reward it carries, the reward after the offer claimed or the support grant decided, the offers' transitions
 * after the snapshot pushed that caused them. Activity ranks below the others (-1) so that cursors made
 * before it existed still read the same.
 */
const RANK: Record<TimelineKind, number> = { activity: -1, support: 0, offer: 1, reward: 2, delivery: 3 };
const TIMELINE_ORDER: readonly TimelineKind[] = ["offer", "reward", "delivery", "support", "activity"];

interface Cursor {
  /** Microseconds since the epoch, as stored. */
  us: bigint;
  rank: number;
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.us.toString(), cursor.rank, cursor.id])).toString("base64url");
}

export function decodeCursor(text: string): Cursor {
  try {
    const [us, rank, id] = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown[];
    if (typeof us === "string" && /^-?\d{1,19}$/.test(us) && typeof rank === "number" && Object.values(RANK).includes(rank) && typeof id === "string" && id.length <= 220) {
      return { us: BigInt(us), rank, id };
    }
  } catch {
    // Falls through to the refusal: the text was not made by encodeCursor.
  }
  throw new OffersError("invalid-cursor", "before: not a cursor of this timeline; pass the `next` of an earlier page unchanged");
}

const instant = (us: bigint) => sql`(timestamptz 'epoch' + ${us.toString()}::bigint * interval '1 microsecond')`;
const micros = (column: SQL) => sql`(extract(epoch from ${column}) * 1000000)::bigint::text`;

/**
 * Rows of a kind of rank `rank` that come after the cursor, given its time and id expressions; `numericId`:
 * ids compare as numbers (bigserial), else as text.
 */
function after(cursor: Cursor | null, rank: number, at: SQL, id: SQL, numericId: boolean): SQL {
  if (!cursor) return sql`true`;
  const t = instant(cursor.us);
  if (rank < cursor.rank) return sql`${at} <= ${t}`;
  if (rank > cursor.rank) return sql`${at} < ${t}`;
  if (numericId && !/^\d{1,19}$/.test(cursor.id)) return sql`${at} < ${t}`;
  const cursorId = numericId ? sql`${cursor.id}::bigint` : sql`${cursor.id}`;
  return sql`(${at} < ${t} or (${at} = ${t} and ${id} < ${cursorId}))`;
}

interface Row {
  at_us: string;
  id: string;
}

type Sourced = { rank: number; row: Row; entry: TimelineEntry };

const isoOf = (us: string) => new Date(Number(BigInt(us) / 1000n)).toISOString();

async function offerRows(db: OffersDatabase, gameId: string, playerId: string, cursor: Cursor | null, take: number): Promise<Sourced[]> {
  const rows = rowsOf<Row & { instance_id: string; offer_id: string | null; name: string | null; type: string; from_status: string | null; to_status: string; cause: string; rule_version: number | null; actor: string | null; reason: string | null }>(
    await db.execute(sql`
      select e.id::text as id, ${micros(sql`e.at`)} as at_us, e.instance_id, i.offer_id, i.name, e.type, e.from_status, e.to_status, e.cause, e.rule_version, e.actor, e.reason
      from offers_events e left join offers_instances i on i.instance_id = e.instance_id
      where e.game_id = ${gameId} and e.player_id = ${playerId} and ${after(cursor, RANK.offer, sql`e.at`, sql`e.id`, true)}
      order by e.at desc, e.id desc limit ${take}`),
  );
  return rows.map((r) => ({
    rank: RANK.offer,
    row: r,
    entry: {
      kind: "offer",
      at: isoOf(r.at_us),
      id: r.id,
      instanceId: r.instance_id,
      offerId: r.offer_id ?? "",
      offerName: r.name ?? "",
      type: r.type,
      from: r.from_status,
      to: r.to_status,
      cause: r.cause,
      ruleVersion: r.rule_version === null ? null : Number(r.rule_version),
      actor: r.actor,
      reason: r.reason,
    },
  }));
}

async function rewardRows(db: OffersDatabase, gameId: string, playerId: string, cursor: Cursor | null, take: number): Promise<Sourced[]> {
  const rows = rowsOf<
    Row & { event_id: string; source_kind: RewardEventKind; source: RewardSource; offer_id: string | null; variant_id: string | null; rewards: Reward[]; actor: string | null; approved_by: string | null; reason: string | null }
  >(
    await db.execute(sql`
      select r.id::text as id, ${micros(sql`r.occurred_at`)} as at_us, r.event_id, r.source_kind, r.source, r.offer_id, r.variant_id, r.rewards, r.actor, r.approved_by, r.reason
      from offers_reward_events r
      where r.game_id = ${gameId} and r.player_id = ${playerId} and ${after(cursor, RANK.reward, sql`r.occurred_at`, sql`r.id`, true)}
      order by r.occurred_at desc, r.id desc limit ${take}`),
  );
  return rows.map((r) => ({
    rank: RANK.reward,
    row: r,
    entry: {
      kind: "reward",
      at: isoOf(r.at_us),
      id: r.id,
      eventId: r.event_id,
      sourceKind: r.source_kind,
      source: r.source,
      offerId: r.offer_id,
      variantId: r.variant_id,
      rewards: r.rewards,
      actor: r.actor,
      approvedBy: r.approved_by,
      reason: r.reason,
    },
  }));
}

async function deliveryRows(db: OffersDatabase, gameId: string, playerId: string, cursor: Cursor | null, take: number): Promise<Sourced[]> {
  const rows = rowsOf<Row & { endpoint_id: string; message_id: string; status: string; attempt_log: StoredAttempt[] }>(
    await db.execute(sql`
      select d.id::text as id, ${micros(sql`d.created_at`)} as at_us, d.endpoint_id, d.message_id, d.status, d.attempt_log
      from offers_webhook_deliveries d join offers_reward_events r on r.id = d.reward_event_id
      where r.game_id = ${gameId} and r.player_id = ${playerId} and ${after(cursor, RANK.delivery, sql`d.created_at`, sql`d.id`, true)}
      order by d.created_at desc, d.id desc limit ${take}`),
  );
  return rows.map((r) => ({
    rank: RANK.delivery,
    row: r,
    entry: {
      kind: "delivery",
      at: isoOf(r.at_us),
      id: r.id,
      deliveryId: Number(r.id),
      endpointId: r.endpoint_id,
      messageId: r.message_id,
      status: r.status,
      attempts: r.attempt_log.map((a) => ({ at: a.at, statusCode: a.statusCode, error: a.error, latencyMs: a.latencyMs })),
    },
  }));
}

async function supportRows(db: OffersDatabase, gameId: string, playerId: string, now: Date, cursor: Cursor | null, take: number): Promise<Sourced[]> {
  // A grant is one entry when it was immediate (granted), two when it waited: requested, then its decision
  // (a pending grant past its time reads as expired then, whether or not the sweep has written it yet).
  const rows = rowsOf<Row & { grant_id: string; action: "requested" | "granted" | "approved" | "rejected" | "expired"; by: string | null; reason: string | null; reward: Reward }>(
    await db.execute(sql`
      select s.id, ${micros(sql`s.at`)} as at_us, s.grant_id, s.action, s.by, s.reason, s.reward from (
        select g.grant_id || ':1' as id, g.created_at as at, g.grant_id,
               case when g.approval_required then 'requested' else 'granted' end as action, g.requested_by as by, g.reason, g.reward
        from offers_support_grants g where g.game_id = ${gameId} and g.player_id = ${playerId}
        union all
        select g.grant_id || ':2', coalesce(g.decided_at, g.expires_at), g.grant_id,
               case when g.status = 'granted' then 'approved' when g.status = 'pending' then 'expired' else g.status end, g.decided_by, g.decision_reason, g.reward
        from offers_support_grants g
        where g.game_id = ${gameId} and g.player_id = ${playerId} and g.approval_required
          and (g.decided_at is not null or (g.status = 'pending' and g.expires_at <= ${now.toISOString()}::timestamptz))
      ) s
      where ${after(cursor, RANK.support, sql`s.at`, sql`s.id`, false)}
      order by s.at desc, s.id desc limit ${take}`),
  );
  return rows.map((r) => ({
    rank: RANK.support,
    row: r,
    entry: { kind: "support", at: isoOf(r.at_us), id: r.id, grantId: r.grant_id, action: r.action, by: r.by, reason: r.reason, reward: r.reward },
  }));
}

async function activityRows(db: OffersDatabase, gameId: string, playerId: string, cursor: Cursor | null, take: number): Promise<Sourced[]> {
  const rows = rowsOf<Row & { kind: PlayerActivity; detail: PlayerActivityDetail }>(
    await db.execute(sql`
      select a.id::text as id, ${micros(sql`a.at`)} as at_us, a.kind, a.detail
      from offers_player_activity a
      where a.game_id = ${gameId} and a.player_id = ${playerId} and ${after(cursor, RANK.activity, sql`a.at`, sql`a.id`, true)}
      order by a.at desc, a.id desc limit ${take}`),
  );
  return rows.map((r) => ({
    rank: RANK.activity,
    row: r,
    entry: {
      kind: "activity",
      at: isoOf(r.at_us),
      id: r.id,
      activity: r.kind,
      fields: r.detail.fields ?? null,
      bytes: r.detail.bytes ?? null,
      instance: r.detail.instance ?? null,
      resumed: r.detail.resumed ?? null,
      openMs: r.detail.openMs ?? null,
      reason: r.detail.reason ?? null,
    },
  }));
}

export async function playerTimeline(db: OffersDatabase, gameId: string, playerId: string, now: Date, query: { kinds: readonly TimelineKind[]; before?: string; limit: number }): Promise<TimelinePage> {
  const cursor = query.before ? decodeCursor(query.before) : null;
  const known = rowsOf<{ found: number }>(await db.execute(sql`select 1 as found from offers_players where game_id = ${gameId} and player_id = ${playerId}`));
  if (known.length === 0) throw new OffersError("player-not-found", playerId);
  const take = query.limit + 1;
  const kinds = new Set(query.kinds);
  const reads: Record<TimelineKind, () => Promise<Sourced[]>> = {
    offer: () => offerRows(db, gameId, playerId, cursor, take),
    reward: () => rewardRows(db, gameId, playerId, cursor, take),
    delivery: () => deliveryRows(db, gameId, playerId, cursor, take),
    support: () => supportRows(db, gameId, playerId, now, cursor, take),
    activity: () => activityRows(db, gameId, playerId, cursor, take),
  };
  const merged: Sourced[] = [];
  // One after another: on the embedded database statements run one at a time anyway, and a pooled
  // request should hold one connection, not five.
  for (const kind of TIMELINE_ORDER) if (kinds.has(kind)) merged.push(...(await reads[kind]()));
  merged.sort((a, b) => compareDesc(a, b));
  const page = merged.slice(0, query.limit);
  const last = page.at(-1);
  return {
    entries: page.map((s) => s.entry),
    next: merged.length > query.limit && last ? encodeCursor({ us: BigInt(last.row.at_us), rank: last.rank, id: last.row.id }) : null,
  };
}

/** Newest first: time, then rank, then id (numbers as numbers), all descending. */
function compareDesc(a: Sourced, b: Sourced): number {
  const at = BigInt(b.row.at_us) - BigInt(a.row.at_us);
  if (at !== 0n) return at > 0n ? 1 : -1;
  if (a.rank !== b.rank) return b.rank - a.rank;
  const numeric = /^\d+$/.test(a.row.id) && /^\d+$/.test(b.row.id);
  if (numeric) {
    const d = BigInt(b.row.id) - BigInt(a.row.id);
    return d === 0n ? 0 : d > 0n ? 1 : -1;
  }
  return a.row.id < b.row.id ? 1 : a.row.id > b.row.id ? -1 : 0;
}
