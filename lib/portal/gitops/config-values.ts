/**
 * Config values: a flat map of keys to string | number | boolean.
 * - keys: 1–128 characters, a letter or "_" first, then letters, digits, "_", ".", "-" (e.g. LOG_LEVEL, feature.checkout-v2);
 * - strings at most 4,096 characters; numbers finite; booleans;
 * - at most 200 keys per environment.
 * In a POST, `values` is a merge patch: a key set to null is removed, others are set, keys not named stay.
 * Client-safe (no Node imports).
 */
import { z } from "zod";

export const CONFIG_KEY = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;
export const MAX_KEYS = 200;
export const MAX_STRING = 4096;

export type ConfigValue = string | number | boolean;
export type ConfigValues = Record<string, ConfigValue>;

export const configValueSchema = z.union([z.string().max(MAX_STRING, `A value can be at most ${MAX_STRING.toLocaleString("en-US")} characters.`), z.number().finite(), z.boolean()], {
  error: "A value must be text, a number, or true or false.",
});

const keySchema = z.string().regex(CONFIG_KEY, "A key starts with a letter or an underscore and holds only letters, digits, underscores, dots and hyphens, at most 128 characters in all.");

export const configValuesSchema = z
  .record(keySchema, configValueSchema)
  .refine((v) => Object.keys(v).length <= MAX_KEYS, { message: `An environment can hold at most ${MAX_KEYS} keys.` });

/** The body's `values`: the same, plus null to remove a key. */
export const configPatchSchema = z
  .record(keySchema, z.union([configValueSchema, z.null()]))
  .refine((v) => Object.keys(v).length > 0, { message: "Name at least one key to change." })
  .refine((v) => Object.keys(v).length <= MAX_KEYS, { message: `A change can name at most ${MAX_KEYS} keys.` });

export type ConfigPatch = z.infer<typeof configPatchSchema>;

export function applyPatch(base: ConfigValues, patch: ConfigPatch): ConfigValues {
  const out: ConfigValues = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** Keys whose values differ between two maps (present in one only, or different), sorted. */
export function diffKeys(a: ConfigValues, b: ConfigValues): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => a[k] !== b[k]).sort();
}
