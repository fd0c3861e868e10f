/**
 * The rows a claim writes: `claimWrites` defines them for the transactional path (plain values), and
 * the hot path's one statement (`HOT_CLAIM`) writes the same rows in SQL text fixed in the code, so
 * that nothing is assembled per claim. claim-paths.integration.test.ts runs both paths on equal
 * fixtures and compares every row they leave: a change to one that the other lacks fails there.
 */
import type { PgTable } from "drizzle-orm/pg-core";
import type { NamedStatement } from "../../db";
import { idempotencyKeys, offerEvents, offerInstances, referrals, rewardEvents, rewardLedger, type RewardSource } from "../db/schema";
import type { Reward } from "../contract";
import { IDEMPOTENCY_KEY_TTL_MS, type RememberedClaim } from "./types";

/** What was claimed: the offer instance or referral, seen from the claiming player. */
export interface ClaimSource {
  gameId: string;
  playerId: string;
  sourceId: string;
  rewards: Reward[];
  /** The offer definition (offers) and the reward variant drawn for the player, if any; null for referrals. */
  offerId: string | null;
  variantId: string | null;
}

/** A value of a written row: known before the claim, a field of the claimed source, or the player's next sequence id. */
export type ClaimValue = { value: string | Date } | { source: keyof ClaimSource } | { nextSeq: true };

type RowDef<T extends PgTable> = { [K in keyof T["$inferInsert"]]?: ClaimValue };

const value = (v: string | Date): ClaimValue => ({ value: v });
const source = (field: keyof ClaimSource): ClaimValue => ({ source: field });

/** The status a claim moves from and to (offer instances and referrals alike). */
export const CLAIM_FROM = "claimable";
export const CLAIM_TO = "claimed";

export function claimWrites(kind: "offer" | "referral", now: Date, via: RewardSource, remember?: RememberedClaim) {
  const claimedSet = { status: value(CLAIM_TO), claimedAt: value(now), updatedAt: value(now) };
  const ledger: RowDef<typeof rewardLedger> = {
    gameId: source("gameId"),
    playerId: source("playerId"),
    sourceKind: value(kind),
    sourceId: source("sourceId"),
    rewards: source("rewards"),
    grantedAt: value(now),
  };
  // The outbox row: the reward.granted event of deliveries and of the feed. Its id and its
  // transaction id are column defaults, so both paths get them from the database alike.
  const rewardEvent: RowDef<typeof rewardEvents> = {
    gameId: source("gameId"),
    playerId: source("playerId"),
    sourceKind: value(kind),
    sourceId: source("sourceId"),
    offerId: source("offerId"),
    variantId: source("variantId"),
    rewards: source("rewards"),
    source: value(via),
    occurredAt: value(now),
  };
  // Referrals have no offer history (they are not offers of the slots).
  const event: RowDef<typeof offerEvents> | null =
    kind === "offer"
      ? {
          gameId: source("gameId"),
          playerId: source("playerId"),
          seq: { nextSeq: true },
          instanceId: source("sourceId"),
          type: value("claimed"),
          fromStatus: value(CLAIM_FROM),
          toStatus: value(CLAIM_TO),
          cause: value("claim"),
          at: value(now),
        }
      : null;
  const idempotency: RowDef<typeof idempotencyKeys> | null = remember
    ? {
        gameId: source("gameId"),
        playerId: source("playerId"),
        endpoint: value(remember.endpoint),
        key: value(remember.key),
        fingerprint: value(remember.fingerprint),
        rewards: source("rewards"),
        createdAt: value(now),
        expiresAt: value(new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS)),
      }
    : null;
  return {
    /** The SET of the claimed row (offers_instances or offers_referrals: same columns). */
    claimed: claimedSet as RowDef<typeof offerInstances> & RowDef<typeof referrals>,
    ledger,
    rewardEvent,
    event,
    idempotency,
  };
}

function resolve(v: ClaimValue, from: ClaimSource, seq: number | undefined): unknown {
  if ("value" in v) return v.value;
  if ("source" in v) return from[v.source];
  if (seq === undefined) throw new Error("a sequence id is needed for this row");
  return seq;
}

/** The row as values, for Drizzle's insert/update (the transactional path). */
// `table` only types the row.
export function rowValues<T extends PgTable>(table: T, def: RowDef<T>, from: ClaimSource, seq?: number): T["$inferInsert"] {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(def) as Array<[string, ClaimValue]>) out[key] = resolve(v, from, seq);
  return out as T["$inferInsert"];
}

/**
 * The hot claim of an offer (claims.ts says what it does), in two shapes: without and with an
 * Idempotency-Key (then the key's row is one more CTE). Parameters: $1 game, $2 player,
 * $3 instance, $4 now, $5 the caller's deadline, $6 who claimed (`via`); keyed, $7 endpoint,
 * $8 key, $9 fingerprint, $10 when the key expires. Literals are constants of this module. Its
 * `unsettled` is claims.ts's unsettledOffers.
 */
function hotClaimText(keyed: boolean): string {
  const remembered = keyed
    ? `, remembered as (
  insert into offers_idempotency_keys (game_id, player_id, endpoint, key, fingerprint, rewards, created_at, expires_at)
  select c.game_id, c.player_id, $7, $8, $9, c.rewards, $4, $10 from claimed c
)`
    : "";
  return `with locked as (
  select event_seq from offers_players where game_id = $1 and player_id = $2 for update
), claimed as (
  update offers_instances set status = '${CLAIM_TO}', claimed_at = $4, updated_at = $4
  where instance_id = $3 and game_id = $1 and player_id = $2 and status = '${CLAIM_FROM}'
    and (select clock_timestamp() < $5::timestamptz from locked)
  returning *
), granted as (
  insert into offers_reward_ledger (game_id, player_id, source_kind, source_id, rewards, granted_at)
  select c.game_id, c.player_id, 'offer', c.instance_id, c.rewards, $4 from claimed c
), announced as (
  insert into offers_reward_events (game_id, player_id, source_kind, source_id, offer_id, variant_id, rewards, source, occurred_at)
  select c.game_id, c.player_id, 'offer', c.instance_id, c.offer_id, c.variant_id, c.rewards, $6, $4 from claimed c
), recorded as (
  insert into offers_events (game_id, player_id, seq, instance_id, type, from_status, to_status, cause, at)
  select c.game_id, c.player_id, l.event_seq + 1, c.instance_id, 'claimed', '${CLAIM_FROM}', '${CLAIM_TO}', 'claim', $4 from claimed c, locked l
), sequenced as (
  update offers_players p set event_seq = l.event_seq + 1 from locked l
  where p.game_id = $1 and p.player_id = $2 and exists (select 1 from claimed)
)${remembered}
select to_jsonb(c) as row, l.event_seq + 1 as seq,
  l.event_seq <> (select event_seq from offers_players where game_id = $1 and player_id = $2) as raced,
  exists (select 1 from offers_instances o
    where o.game_id = $1 and o.player_id = $2
      and (o.status = 'inQueue' or (o.status in ('surfaced', 'viewed') and o.expires_at <= $4))) as unsettled
from claimed c, locked l`;
}

/** The hot claim's two statements, each named: every pooled connection parses and plans it once. */
export const HOT_CLAIM: Readonly<Record<"plain" | "keyed", NamedStatement>> = {
  plain: { name: "offers_claim", text: hotClaimText(false) },
  keyed: { name: "offers_claim_keyed", text: hotClaimText(true) },
};

/** What one hot claim binds to HOT_CLAIM's parameters. */
export interface HotClaimValues {
  gameId: string;
  playerId: string;
  instanceId: string;
  now: Date;
  /** The caller's deadline (`callerDeadlineAt`): an ISO instant, or "infinity". */
  deadline: string;
  via: RewardSource;
  remember?: RememberedClaim;
}

/** The statement of a hot claim and its parameters, in HOT_CLAIM's order. */
export function hotClaim(values: HotClaimValues): { statement: NamedStatement; params: string[] } {
  const now = values.now.toISOString();
  const params = [values.gameId, values.playerId, values.instanceId, now, values.deadline, values.via];
  const remember = values.remember;
  if (!remember) return { statement: HOT_CLAIM.plain, params };
  const expiresAt = new Date(values.now.getTime() + IDEMPOTENCY_KEY_TTL_MS).toISOString();
  return { statement: HOT_CLAIM.keyed, params: [...params, remember.endpoint, remember.key, remember.fingerprint, expiresAt] };
}
