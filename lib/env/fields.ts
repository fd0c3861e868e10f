/**
 * Kinds of setting shared by the schemas of lib/env. Each kind's messages say in words what it accepts, since a
 * refused start prints them next to the variable's name.
 */
import { z } from "zod";

/** 1, true, 0, false or empty (off); unset is off. */
export const flag = () =>
  z
    .enum(["0", "1", "true", "false", ""], { error: "1 or true (on), 0, false or empty (off)" })
    .optional()
    .transform((v) => v === "1" || v === "true");

/** A URL, or unset; an empty or blank value counts as unset. */
export const optionalUrl = () =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.url({ error: "a URL (scheme://host…)" }).optional());

export const url = (fallback: string) => z.url({ error: "a URL (scheme://host…)" }).default(fallback);

/** A whole number within [min, max] (max omitted: no upper bound); one message for every way to miss it. */
export const integer = (min: number, max?: number, unit = "") => {
  const words = `a whole number${unit ? ` of ${unit}` : ""} ${max === undefined ? `of at least ${min}` : `from ${min} to ${max}`}`;
  const bounded = z.coerce.number({ error: words }).int({ error: words }).min(min, { error: words });
  return max === undefined ? bounded : bounded.max(max, { error: words });
};

/** A TCP port. */
export const port = () => integer(1, 65535);

/** A duration in milliseconds, 10 ms to a day. */
export const millis = (fallback: number) => integer(10, 86_400_000, "milliseconds").default(fallback);

/** One of the given words. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `one of ${values.join(", ")}` });

/** A secret that must be long enough to resist guessing. */
export const token = () => z.string().min(16, { error: "at least 16 characters" });

/** A comma-separated list, blanks dropped; unset or empty is the empty list. */
export const commaList = () =>
  z
    .string()
    .optional()
    .transform((v) => (v ? v.split(",").map((entry) => entry.trim()).filter(Boolean) : []));
