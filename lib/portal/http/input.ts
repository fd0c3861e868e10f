/**
 * What every portal route reads from a request, checked once at the boundary:
 * - the JSON body, up to MAX_BODY_BYTES;
 * - one rule for every string of the body (values and keys), the query and the path: no U+0000 and no
 *   lone UTF-16 surrogate (neither can be stored: PostgreSQL refuses NUL in text, UTF-8 has no
 *   surrogates), and JSON nested at most MAX_JSON_DEPTH deep (the domain walks bodies recursively).
 */
import type { z } from "zod";
import { PortalError, type PortalIssue } from "../errors";

export const MAX_BODY_BYTES = 256 * 1024;
export const MAX_JSON_DEPTH = 64;

/** Why a body could not be read, for the route's answer. */
export type BodyProblem = { kind: "too-large"; limit: number } | { kind: "malformed-json" };

/** The JSON body, or why it cannot be read. */
export async function readJsonBody(request: Request): Promise<{ ok: true; value: unknown } | { ok: false; problem: BodyProblem }> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return { ok: false, problem: { kind: "too-large", limit: MAX_BODY_BYTES } };
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) return { ok: false, problem: { kind: "too-large", limit: MAX_BODY_BYTES } };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, problem: { kind: "malformed-json" } };
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with a string under the boundary rule, or null. */
export function stringProblem(value: string): string | null {
  if (value.includes("\u0000")) return "contains U+0000 (NUL), which is not accepted";
  if (LONE_SURROGATE.test(value)) return "is not well-formed Unicode (it holds a lone surrogate)";
  return null;
}

/**
 * The strings of a parsed JSON value (or a query or params object) that break the boundary rule, and
 * nesting beyond MAX_JSON_DEPTH. Walks with its own stack: a deep body must not exhaust the call stack.
 */
export function inputIssues(value: unknown, limit = 10): PortalIssue[] {
  const issues: PortalIssue[] = [];
  const stack: Array<{ value: unknown; path: string[] }> = [{ value, path: [] }];
  while (stack.length > 0 && issues.length < limit) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === "string") {
      const problem = stringProblem(current);
      if (problem) issues.push({ path, message: problem });
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    if (path.length >= MAX_JSON_DEPTH) {
      issues.push({ path: path.slice(0, 8), message: `nested deeper than ${MAX_JSON_DEPTH} levels` });
      continue;
    }
    const entries: Array<[string, unknown]> = Array.isArray(current) ? current.map((v, i) => [String(i), v]) : Object.entries(current);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (!Array.isArray(current)) {
        const problem = stringProblem(key);
        if (problem) {
          issues.push({ path: [...path, JSON.stringify(key)], message: `the key ${problem}` });
          continue;
        }
      }
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return issues;
}

/** Throws 400 invalid-request when a part of the request breaks the boundary rule. */
export function assertWellFormed(part: "body" | "query" | "path", value: unknown): void {
  const issues = inputIssues(value);
  if (issues.length === 0) return;
  const where = part === "path" ? "the path" : part === "query" ? "the query" : "the body";
  const first = issues[0]!.message;
  const detail = first.startsWith("nested") ? `${where} is ${first}` : `${where} holds a string that ${first.replace(/^the key /, "")}`;
  throw new PortalError("invalid-request", detail, { issues });
}

/** zod's issues in the portal's shape (`path` as strings); an unknown key is an issue of its own, at the key's path. */
export function issuesOf(error: z.ZodError): PortalIssue[] {
  return error.issues.flatMap((i) =>
    i.code === "unrecognized_keys"
      ? i.keys.map((key) => ({ path: [...i.path.map(String), key], message: `unknown key "${key}": this body has no such field` }))
      : [{ path: i.path.map(String), message: i.message }],
  );
}
