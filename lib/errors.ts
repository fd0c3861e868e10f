/**
 * The base of the portal's semantic errors: a stable code, a sentence for people and, for bad input,
 * the issues. It sits below lib/catalog and lib/portal so both can throw without the catalog
 * importing the portal; neither carries an HTTP status (lib/portal/http maps codes to statuses).
 */

/** One problem of an input: where (keys from the root of the part that was wrong) and what. */
export interface ErrorIssue {
  path: string[];
  message: string;
}

/** The documented extra fields an error body may carry besides message, detail and issues. */
export interface ErrorFields {
  /** precondition-failed: the current ETag (also sent as the ETag header). */
  etag?: string;
  /** forbidden: the role the call needs. */
  requiredRole?: string;
}

export abstract class CodedError<C extends string> extends Error {
  readonly issues?: ErrorIssue[];
  readonly fields: ErrorFields;

  constructor(
    readonly code: C,
    readonly detail: string,
    options: { issues?: ErrorIssue[]; fields?: ErrorFields; cause?: unknown } = {},
  ) {
    super(`${code}: ${detail}`, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.issues) this.issues = options.issues;
    this.fields = options.fields ?? {};
  }
}
