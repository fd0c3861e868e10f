/**
 * The one place where a failure of a portal route becomes an HTTP answer. Route handlers throw (or let
 * through) whatever their domain throws; route() catches it here. Every error answers one body:
 *
 *   {message: <stable code>, detail: <sentence for people>, issues?: [{path: string[], message}]}
 *
 * plus `etag` on precondition-failed (and the ETag header), `requiredRole` on forbidden, and
 * Retry-After on every 503. PortalError and the catalog's CatalogWriteError carry their code; lib/scm's ScmError is
 * translated (status.ts: scmCodeOf); the database out of reach or too slow is database-unavailable;
 * anything else is internal-error, logged whole.
 */
import "server-only";
import { isDatabaseUnavailable } from "@/lib/db";
import { CatalogWriteError } from "@/lib/catalog/errors";
import { ScmError } from "@/lib/scm/types";
import type { ErrorFields, ErrorIssue } from "@/lib/errors";
import { z } from "zod";
import { PORTAL_ERROR_CODES, PortalError } from "../errors";
import { RETRY_AFTER_SECONDS, scmCodeOf, statusOf } from "./status";

declare const answerBody: unique symbol;
/**
 * A route's success answer, carrying the type of its JSON body so that route() can hold a handler to the
 * schemas it declares (a plain Response is not one: wrap a non-JSON answer in nonJson()).
 */
export type Answer<Body = unknown> = Response & { readonly [answerBody]: Body };

/** A JSON answer (web-standard Response only, no Next.js), not cached unless the route says so. */
export function json<Body>(body: Body, init: ResponseInit = {}): Answer<Body> {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(body), { ...init, headers }) as Answer<Body>;
}

/** An answer without a JSON body (304, a redirect, an event stream): its route declares its status and content type. */
export function nonJson(response: Response): Answer<never> {
  return response as Answer<never>;
}

/** The body of every portal error (its schema also describes it in the OpenAPI document). */
export const ErrorBodySchema = z.object({
  message: z.enum(PORTAL_ERROR_CODES).describe("The stable code: branch on it"),
  detail: z.string().describe("A sentence for people; its wording may change"),
  issues: z
    .array(z.object({ path: z.array(z.string()).describe("Keys from the root of the part that was wrong"), message: z.string() }))
    .optional()
    .describe("Bad input only: each problem and where"),
  etag: z.string().optional().describe("precondition-failed: the current ETag (also the ETag header)"),
  requiredRole: z.string().optional().describe('forbidden: who may call: a role ("operator"), or several ways in ("support or liveops", "owner or operator", "owner or operator or author")'),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
// The documented extra fields are exactly the ones errors carry.
type _SameFields = [keyof ErrorFields extends keyof ErrorBody ? true : never, ErrorIssue extends NonNullable<ErrorBody["issues"]>[number] ? true : never];

const unavailableLog = { last: 0 };

/** The portal error a thrown value stands for. */
export function portalErrorOf(error: unknown): PortalError {
  if (error instanceof PortalError) return error;
  if (error instanceof CatalogWriteError) return new PortalError(error.code, error.detail, { issues: error.issues, fields: error.fields, cause: error });
  if (error instanceof ScmError) return new PortalError(scmCodeOf[error.code], error.message, { cause: error });
  if (isDatabaseUnavailable(error)) {
    // One line per 10 s while it lasts: every request fails the same way.
    const now = Date.now();
    if (now - unavailableLog.last > 10_000) {
      unavailableLog.last = now;
      console.warn(`[portal] database unavailable: ${describe(error)}`);
    }
    return new PortalError("database-unavailable", "the portal database is not answering; try again in a few seconds", { cause: error });
  }
  console.error("[portal] unhandled error:", error);
  return new PortalError("internal-error", "an unexpected error; it has been logged", { cause: error });
}

export function errorBody(error: PortalError): ErrorBody {
  const body: ErrorBody = { message: error.code, detail: error.detail };
  if (error.issues) body.issues = error.issues;
  if (error.code === "precondition-failed" && error.fields.etag) body.etag = error.fields.etag;
  if (error.code === "forbidden" && error.fields.requiredRole) body.requiredRole = error.fields.requiredRole;
  return body;
}

export function errorResponse(error: unknown): Response {
  const portalError = portalErrorOf(error);
  const status = statusOf[portalError.code];
  const headers = new Headers();
  if (status === 503) headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  if (portalError.code === "precondition-failed" && portalError.fields.etag) headers.set("ETag", portalError.fields.etag);
  return json(errorBody(portalError), { status, headers });
}

/** The innermost message of an error chain (a driver's words rather than an ORM's "Failed query: …"). */
function describe(error: unknown): string {
  let current = error as { message?: unknown; cause?: unknown } | undefined;
  let message = String(current?.message ?? error);
  for (let depth = 0; current?.cause && depth < 5; depth++) {
    current = current.cause as { message?: unknown; cause?: unknown };
    if (typeof current?.message === "string" && current.message) message = current.message;
  }
  return message;
}
