/** Maps GitOps and provider errors to answers of the portal routes. */
import { problem } from "../../catalog/http";
import { ScmError, httpStatusOf } from "../../scm/types";
import { GitOpsError } from "./errors";

export function errorResponse(e: unknown): Response {
  if (e instanceof GitOpsError) return problem(e.status, e.message, e.details);
  if (e instanceof ScmError) return problem(httpStatusOf(e), e.message, { code: e.code });
  console.error("[portal] gitops:", e);
  return problem(500, "internal error");
}
