/**
 * Audience rules and rollouts as SQL over offers_players, so the database counts an audience and
 * pre-filters a surfacing job's pages instead of shipping every snapshot to the service. Every
 * comparison is wrapped in coalesce(…, false): a field the snapshot lacks makes SQL's NULL, which
 * must read as "false" exactly as the TypeScript evaluator (./audience) reads it, also under `not`.
 * Values are always parameters; field names become JSON keys (parameters too), never SQL text.
 */
import { sql, type SQL } from "drizzle-orm";
import { players } from "../db/schema";
import { publicGameId } from "../environments";
import { parseAudienceField, type AudienceComparison, type AudienceField, type AudienceRule } from "../contract";

function fieldSql(field: AudienceField): SQL {
  switch (field.kind) {
    case "core":
      return sql`${players[field.name]}`;
    case "username":
      return sql`${players.username}`;
    case "currency":
      return sql`((${players.currencies} -> ${field.id}::text) ->> ${field.counter}::text)::float8`;
    case "level":
      return sql`((${players.levels} -> ${field.name}::text) ->> 'level')::float8`;
  }
}

function comparisonSql(c: AudienceComparison): SQL {
  const field = parseAudienceField(c.field);
  if (!field) return sql`false`;
  const expr = fieldSql(field);
  const text = field.kind === "username";
  const param = (v: unknown) => (text ? sql`${String(v)}::text` : sql`${Number(v)}::float8`);
  switch (c.op) {
    case "exists":
      return sql`((${expr}) is not null) = ${c.value ?? true}::boolean`;
    case "eq":
      return sql`coalesce(${expr} = ${param(c.value)}, false)`;
    case "ne":
      return sql`coalesce(${expr} <> ${param(c.value)}, false)`;
    case "gt":
      return sql`coalesce(${expr} > ${param(c.value)}, false)`;
    case "gte":
      return sql`coalesce(${expr} >= ${param(c.value)}, false)`;
    case "lt":
      return sql`coalesce(${expr} < ${param(c.value)}, false)`;
    case "lte":
      return sql`coalesce(${expr} <= ${param(c.value)}, false)`;
    case "in": {
      const values = (c.value as Array<number | string>).map(param);
      return sql`coalesce(${expr} in (${sql.join(values, sql`, `)}), false)`;
    }
    case "between": {
      const [low, high] = c.value as [number, number];
      return sql`coalesce(${expr} between ${param(low)} and ${param(high)}, false)`;
    }
  }
}

/** A boolean SQL expression over offers_players that is true exactly when matchesAudience is. */
export function audienceSql(rule: AudienceRule): SQL {
  if ("all" in rule) return rule.all.length ? sql`(${sql.join(rule.all.map(audienceSql), sql` and `)})` : sql`true`;
  if ("any" in rule) return rule.any.length ? sql`(${sql.join(rule.any.map(audienceSql), sql` or `)})` : sql`false`;
  if ("not" in rule) return sql`(not ${audienceSql(rule.not)})`;
  return comparisonSql(rule);
}

/**
 * True exactly when inRollout(percent, gameId, offerId, playerId) is (./rollout): the same MD5
 * bucket, its first 32 bits read unsigned, and the same float8 arithmetic.
 */
export function rolloutSql(percent: number, gameId: string, offerId: string): SQL {
  if (percent >= 100) return sql`true`;
  if (percent <= 0) return sql`false`;
  const bucket = sql`('x' || lpad(substr(md5(${`rollout:${publicGameId(gameId)}:${offerId}:`}::text || ${players.playerId}), 1, 8), 16, '0'))::bit(64)::bigint`;
  return sql`((${bucket})::float8 / 4294967296::float8) * 100::float8 < ${percent}::float8`;
}
