/**
 * The answers to bad input that portal routes gave before lib/portal/http existed, kept because the UI
 * and scripts read them (a sentence in `message`, or `issues[].path` as a dotted string). New routes
 * use route()'s standard answer; these go when the UI reads `{message, detail, issues}` everywhere.
 */
import { humanIssues } from "@/lib/catalog/schema";
import { problem } from "./respond";
import type { InputProblem } from "./route";

const dotted = (error: { issues: Array<{ path: PropertyKey[]; message: string }> }, fallback = "") =>
  error.issues.map((i) => ({ path: i.path.map(String).join(".") || fallback, message: i.message }));

function bodyProblem(p: InputProblem): Response | null {
  if (p.kind === "too-large") return problem(413, `the body is larger than ${p.limit} bytes`);
  if (p.kind === "malformed-json") return problem(400, "the body is not valid JSON");
  return null;
}

/** `{message: "invalid-request", issues: [{path: "a.b", message}]}`; a body that is not JSON or too large: a sentence. */
export function dottedIssues(p: InputProblem): Response {
  if (p.kind !== "schema") return bodyProblem(p)!;
  return problem(400, "invalid-request", { issues: dotted(p.error) });
}

/** `{message: <the first issue's sentence>}` (a bad component name, view, environment, page…). */
export function firstIssue(p: InputProblem): Response {
  if (p.kind !== "schema") return bodyProblem(p)!;
  return problem(400, p.error.issues[0]?.message ?? "invalid-request");
}

/** GET /api/components: `{message: "invalid query", issues}` with the catalog's readable issues. */
export function componentsQuery(p: InputProblem): Response {
  if (p.kind !== "schema") return bodyProblem(p)!;
  return problem(400, "invalid query", { issues: humanIssues(p.error, p.raw) });
}

/** POST /api/app-order-requests/:id/reject: the first sentence, and the issues (a missing reason is at "reason"). */
export function rejectReason(p: InputProblem): Response {
  if (p.kind !== "schema") return bodyProblem(p)!;
  return problem(400, p.error.issues[0]?.message ?? "invalid-request", { issues: dotted(p.error, "reason") });
}
