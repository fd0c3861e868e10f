/**
 * The rows a claim writes, defined once. Both claim paths build their writes from `claimWrites`:
 * the hot path turns each value into SQL of its one statement (columns of the claimed row, the
 * player's next sequence id from the locked row, parameters), the transactional path into plain
 * values. So the two can never write different rows.
 */
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { idempotencyKeys, offerEvents, offerInstances, referrals, rewardLedger } from "../db/schema";
import type { Reward } from "../schemas";
import { IDEMPOTENCY_KEY_TTL_MS, type RememberedClaim } from "./types";

/** What was claimed: the offer instance or referral, seen from the claiming player. */
export interface ClaimSource {
  gameId: string;
  playerId: string;
  sourceId: string;
  rewards: Reward[];
}

/** A value of a written row: known before the claim, a field of the claimed source, or the player's next sequence id. */
export type ClaimValue = { value: string | Date } | { source: keyof ClaimSource } | { nextSeq: true };

type RowDef<T extends PgTable> = { [K in keyof T["$inferInsert"]]?: ClaimValue };

const value = (v: string | Date): ClaimValue => ({ value: v });
const source = (field: keyof ClaimSource): ClaimValue => ({ source: field });

/** The status a claim moves from and to (offer instances and referrals alike). */
export const CLAIM_FROM = "claimable";
export const CLAIM_TO = "claimed";

export function claimWrites(kind: "offer" | "referral", now: Date, remember?: RememberedClaim) {
  const claimedSet = { status: value(CLAIM_TO), claimedAt: value(now), updatedAt: value(now) };
  const ledger: RowDef<typeof rewardLedger> = {
    gameId: source("gameId"),
    playerId: source("playerId"),
    sourceKind: value(kind),
    sourceId: source("sourceId"),
    rewards: source("rewards"),
    grantedAt: value(now),
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

/** How the hot statement reaches the claimed source's fields and the next sequence id. */
export interface ClaimSql {
  source: Record<keyof ClaimSource, SQL>;
  nextSeq: SQL;
}

function sqlOf(v: ClaimValue, refs: ClaimSql): SQL {
  if ("value" in v) return sql`${v.value instanceof Date ? v.value.toISOString() : v.value}`;
  if ("source" in v) return refs.source[v.source];
  return refs.nextSeq;
}

function columnName(table: PgTable, key: string): SQL {
  const column = getTableColumns(table)[key];
  if (!column) throw new Error(`no column ${key}`);
  return sql`${sql.identifier(column.name)}`;
}

/** `(col, …) select value, …` of an INSERT … SELECT (the hot path). */
export function insertSelectSql<T extends PgTable>(table: T, def: RowDef<T>, refs: ClaimSql): { columns: SQL; values: SQL } {
  const entries = Object.entries(def) as Array<[string, ClaimValue]>;
  return {
    columns: sql.join(entries.map(([key]) => columnName(table, key)), sql`, `),
    values: sql.join(entries.map(([, v]) => sqlOf(v, refs)), sql`, `),
  };
}

/** `col = value, …` of an UPDATE (the hot path). */
export function setSql<T extends PgTable>(table: T, def: RowDef<T>): SQL {
  const entries = Object.entries(def) as Array<[string, ClaimValue]>;
  return sql.join(
    entries.map(([key, v]) => {
      if (!("value" in v)) throw new Error(`the SET of ${key} must be a value`);
      return sql`${columnName(table, key)} = ${sqlOf(v, { source: {} as ClaimSql["source"], nextSeq: sql`` })}`;
    }),
    sql`, `,
  );
}
