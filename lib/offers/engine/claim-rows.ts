/**
 * The rows a claim writes, defined once. Both claim paths build their writes from `claimWrites`:
 * the hot path turns each value into SQL of its one statement (columns of the claimed row, the
 * player's next sequence id from the locked row, parameters), the transactional path into plain
 * values. So the two can never write different rows.
 */
import { getTableColumns, SQL, StringChunk, type SQLChunk } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { idempotencyKeys, offerEvents, offerInstances, referrals, rewardEvents, rewardLedger, type RewardSource } from "../db/schema";
import type { Reward } from "../schemas";
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

/** How the hot statement reaches the claimed source's fields and the next sequence id: SQL expressions (constants of the code, never input). */
export interface ClaimSql {
  source: Record<keyof ClaimSource, string>;
  nextSeq: string;
}

// Built once per table: the hot path asks for them on every claim.
const columnNames = new WeakMap<PgTable, Map<string, string>>();

function columnName(table: PgTable, key: string): string {
  let names = columnNames.get(table);
  if (!names) {
    names = new Map(Object.entries(getTableColumns(table)).map(([k, column]) => [k, `"${column.name}"`]));
    columnNames.set(table, names);
  }
  const name = names.get(key);
  if (!name) throw new Error(`no column ${key}`);
  return name;
}

// One flat SQL (text chunks and parameters): drizzle renders nested sql`` objects many times slower,
// and this is built on every claim.
function pushValue(chunks: SQLChunk[], v: ClaimValue, refs: ClaimSql | undefined): void {
  // A bare value is a parameter (as in a sql`` template); a Param object renders slower.
  if ("value" in v) chunks.push((v.value instanceof Date ? v.value.toISOString() : v.value) as unknown as SQLChunk);
  else if (!refs) throw new Error("only values can be set here");
  else chunks.push(new StringChunk("source" in v ? refs.source[v.source] : refs.nextSeq));
}

/** `(col, …) select value, …` of an INSERT … SELECT (the hot path). */
export function insertSelectSql<T extends PgTable>(table: T, def: RowDef<T>, refs: ClaimSql): SQL {
  const entries = Object.entries(def) as Array<[string, ClaimValue]>;
  const chunks: SQLChunk[] = [new StringChunk(`(${entries.map(([key]) => columnName(table, key)).join(", ")}) select `)];
  entries.forEach(([, v], i) => {
    if (i > 0) chunks.push(new StringChunk(", "));
    pushValue(chunks, v, refs);
  });
  return new SQL(chunks);
}

/** `col = value, …` of an UPDATE (the hot path). */
export function setSql<T extends PgTable>(table: T, def: RowDef<T>): SQL {
  const chunks: SQLChunk[] = [];
  (Object.entries(def) as Array<[string, ClaimValue]>).forEach(([key, v], i) => {
    chunks.push(new StringChunk(`${i > 0 ? ", " : ""}${columnName(table, key)} = `));
    pushValue(chunks, v, undefined);
  });
  return new SQL(chunks);
}
