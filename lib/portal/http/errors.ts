/**
 * The portal's error type, modelled on lib/offers/errors.ts: a closed union of stable codes (the
 * body's `message`), one total status table, a sentence for people (`detail`) and, for bad input,
 * the issues. Domain and route code throw these; lib/portal/http/respond.ts turns them into answers.
 */
export type PortalErrorCode =
  | "invalid-request"
  | "not-found"
  | "payload-too-large"
  | "database-unavailable"
  | "internal-error";

const statusOf: Record<PortalErrorCode, number> = {
  "invalid-request": 400,
  "not-found": 404,
  "payload-too-large": 413,
  "database-unavailable": 503,
  "internal-error": 500,
};

/** One problem of a request's input: where (keys from the root of its part: body, query or path) and what. */
export interface PortalIssue {
  path: string[];
  message: string;
}

export class PortalError extends Error {
  readonly status: number;
  constructor(
    readonly code: PortalErrorCode,
    readonly detail: string,
    readonly issues?: PortalIssue[],
  ) {
    super(`${code}: ${detail}`);
    this.name = "PortalError";
    this.status = statusOf[code];
  }
}

/** The body every new portal error answers: `{message, detail, issues?}`. */
export function errorBody(error: PortalError): { message: PortalErrorCode; detail: string; issues?: PortalIssue[] } {
  return { message: error.code, detail: error.detail, ...(error.issues ? { issues: error.issues } : {}) };
}
