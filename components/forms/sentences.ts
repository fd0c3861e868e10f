// Form messages for people: one zod issue said as a sentence naming the field by its label, and a
// react-hook-form resolver that says every issue of a form that way. Limits come from the schema the
// server enforces (its .max), so the form refuses what the server would, before any request.
import type { FieldError, FieldErrors, FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";

/** Field labels by field name, as the form shows them. */
export type FieldLabels = Record<string, string>;

const count = (n: number | bigint) => Number(n).toLocaleString("en-US");

/** The most characters a string schema accepts: the limit the server enforces, for a hint and a check. */
export function maxLengthOf(schema: { maxLength: number | null }): number {
  if (schema.maxLength === null) throw new Error("this schema sets no maximum length");
  return schema.maxLength;
}

/** The hint beside a field with a length limit. */
export const lengthHint = (max: number) => `At most ${count(max)} characters.`;

/** The sentence for a text longer than its limit, with how long it is. */
export const tooLongSentence = (label: string, max: number, length: number) =>
  `${label} can be at most ${count(max)} characters; this one has ${count(length)}.`;

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** One issue as a sentence: the limits in words, and a schema's own message after the field's label when it reads as a predicate ("must …"). */
export function issueSentence(issue: z.core.$ZodIssue, label: string, value?: unknown): string {
  if (issue.code === "too_big" && issue.origin === "string") {
    return typeof value === "string" ? tooLongSentence(label, Number(issue.maximum), value.length) : `${label} can be at most ${count(issue.maximum)} characters.`;
  }
  // A message the schema wrote as a sentence for people stands as written.
  if (/^[A-Z].*[.!?]$/s.test(issue.message)) return issue.message;
  if (issue.code === "too_small" && issue.origin === "string") {
    return Number(issue.minimum) <= 1 ? `${label} cannot be empty.` : `${label} needs at least ${count(issue.minimum)} characters.`;
  }
  if (issue.code === "too_big" && issue.origin === "number") return `${label} can be at most ${count(issue.maximum)}.`;
  if (issue.code === "too_small" && issue.origin === "number") return `${label} must be at least ${count(issue.minimum)}.`;
  if (issue.code === "invalid_type" && (value === undefined || value === "")) return `${label} is required.`;
  // zod's own wording ("Invalid input", "Too big: …") names internals; a schema's message that starts lower-case is a predicate.
  if (/^[a-z]/.test(issue.message)) return sentence(`${label} ${issue.message}`);
  if (/^(Invalid|Too (big|small)|Unrecognized)/.test(issue.message)) return `${label} is not valid.`;
  return sentence(issue.message);
}

const valueAt = (values: unknown, path: readonly PropertyKey[]) =>
  path.reduce<unknown>((v, key) => (v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[key] : undefined), values);

/**
 * A resolver that parses the form's values with `schema` and says each issue as a sentence naming its
 * field (the first issue per field). Flat forms: an issue's field is its path's first key.
 */
export function sentenceResolver<Input extends FieldValues, Output>(schema: z.ZodType<Output, Input>, labels: FieldLabels): Resolver<Input, unknown, Output> {
  return async (values) => {
    const parsed = await schema.safeParseAsync(values);
    if (parsed.success) return { values: parsed.data, errors: {} };
    const errors: Record<string, FieldError> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "root");
      if (errors[field]) continue;
      errors[field] = { type: issue.code, message: issueSentence(issue, labels[field] ?? "This field", valueAt(values, issue.path)) };
    }
    return { values: {}, errors: errors as FieldErrors<Input> };
  };
}
