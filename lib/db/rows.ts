/** Rows of raw statements (`execute(sql…)`, named statements), as Drizzle's own queries would give them. */
import { getTableColumns } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/** The rows of a raw `execute(sql…)`: both drivers answer an object with `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * Decodes rows of `table` from their database form (keys are column names; values as the driver
 * or PostgreSQL's JSON gives them, e.g. a `to_jsonb`, `row_to_json` or `json_agg` of rows): each
 * column maps its value as Drizzle's own queries do. Built once per table, for hot paths.
 */
export function driverRowDecoder<T extends PgTable>(table: T): (raw: Record<string, unknown>) => T["$inferSelect"] {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => [key, column.name, column] as const);
  return (raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, name, column] of columns) {
      const value = raw[name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as T["$inferSelect"];
  };
}

const decoders = new WeakMap<PgTable, (raw: Record<string, unknown>) => unknown>();

/** One table row from its database form (`driverRowDecoder`, kept per table). */
export function fromDriverRow<T extends PgTable>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  let decode = decoders.get(table);
  if (!decode) decoders.set(table, (decode = driverRowDecoder(table)));
  return decode(raw) as T["$inferSelect"];
}
