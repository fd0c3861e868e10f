// The forms of the config editors: their values (rows as typed), and zod schemas that check them
// with config-edit.ts (each problem named against its row) and answer what a save sends, parsed by
// lib's own config schemas (configValuesSchema, configPatchSchema): the form never sends what the
// server would refuse.
import { z } from "zod";
import { configPatchSchema, configValuesSchema, type ConfigValues } from "@/lib/portal/gitops/config-values";
import { VALUE_TYPES, bulkUpdates, valuesOf, type DraftIssue, type ValueType } from "./config-edit";

export interface EntryRow {
  key: string;
  type: ValueType;
  text: string;
}

export interface BulkFormRow {
  key: string;
  type: ValueType;
  /** Per environment: the text of its value, or null where the key is not set. */
  cells: Record<string, string | null>;
}

const valueType = z.enum(VALUE_TYPES as [ValueType, ...ValueType[]]);
const entryRow = z.object({ key: z.string(), type: valueType, text: z.string() });
const bulkRow = z.object({ key: z.string(), type: valueType, cells: z.record(z.string(), z.string().nullable()) });

/** Rows get their index as the id config-edit.ts names them by. */
const numbered = <T>(rows: T[]) => rows.map((row, i) => ({ ...row, id: String(i) }));

function report(ctx: z.RefinementCtx, list: "entries" | "rows", issues: DraftIssue[], valueField: "text" | "cells") {
  for (const issue of issues) {
    const path = issue.id === "" ? [list] : [list, Number(issue.id), issue.field === "key" ? "key" : valueField];
    ctx.addIssue({ code: "custom", path, message: issue.message });
  }
}

export const emptyEntryRow = (): EntryRow => ({ key: "", type: "text", text: "" });

/** One environment's editor → its values. */
export const environmentFormSchema = z
  .object({ entries: z.array(entryRow) })
  .superRefine(({ entries }, ctx) => report(ctx, "entries", valuesOf(numbered(entries)).issues, "text"))
  .transform(({ entries }) => valuesOf(numbered(entries)).values)
  .pipe(configValuesSchema);

export type EnvironmentForm = z.input<typeof environmentFormSchema>;

/** The bulk editor (rows of keys, a column per environment) → one update per environment that changes. */
export function bulkFormSchema(environments: string[], base: Record<string, ConfigValues>) {
  return z
    .object({ rows: z.array(bulkRow) })
    .superRefine(({ rows }, ctx) => report(ctx, "rows", bulkUpdates(environments, base, numbered(rows)).issues, "cells"))
    .transform(({ rows }) => bulkUpdates(environments, base, numbered(rows)).updates.map(({ environment, values }) => ({ environment, values })))
    .pipe(z.array(z.object({ environment: z.string(), values: configPatchSchema })));
}

export type BulkForm = { rows: BulkFormRow[] };
export type BulkUpdate = { environment: string; values: z.output<typeof configPatchSchema> };
