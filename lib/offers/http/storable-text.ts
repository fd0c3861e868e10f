/** What PostgreSQL can store unchanged: the input boundary (./plugins/input.ts) checks every string of a request with it. */

/**
 * Text PostgreSQL cannot store unchanged: U+0000 (refused by text and jsonb) and UTF-16
 * surrogates without their pair (refused by jsonb, silently replaced by U+FFFD in text). With the
 * `u` flag a well-formed pair is one code point, so `\p{Cs}` matches only a lone surrogate.
 */
const UNSTORABLE_TEXT = /[\u0000\p{Cs}]/u;

/** Why a string cannot be stored as sent, or null when it can. */
export function unstorableTextReason(value: string): string | null {
  if (!UNSTORABLE_TEXT.test(value)) return null;
  return value.includes("\u0000") ? "must not contain U+0000 (NUL)" : "must be well-formed Unicode (a UTF-16 surrogate without its pair)";
}

export interface ValidationIssue {
  path: Array<string | number>;
  message: string;
}

/**
 * Every string (and object key) of a parsed JSON value, params or query that cannot be stored,
 * with its path; at most `limit`. Iterative: a deeply nested body must not overflow the stack.
 */
export function findUnstorableText(value: unknown, limit = 20): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: Array<{ value: unknown; path: Array<string | number> }> = [{ value, path: [] }];
  while (stack.length > 0 && issues.length < limit) {
    const item = stack.pop()!;
    const current = item.value;
    if (typeof current === "string") {
      const reason = unstorableTextReason(current);
      if (reason) issues.push({ path: item.path, message: reason });
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: [...item.path, i] });
    } else if (current !== null && typeof current === "object") {
      for (const key of Object.keys(current)) {
        const reason = unstorableTextReason(key);
        if (reason) issues.push({ path: [...item.path, key], message: `key ${reason}` });
        stack.push({ value: (current as Record<string, unknown>)[key], path: [...item.path, key] });
      }
    }
  }
  return issues;
}
