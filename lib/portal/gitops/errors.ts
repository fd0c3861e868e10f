/** Errors of the GitOps services, with the HTTP status the routes answer. */
export class GitOpsError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 422 | 502 | 503,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "GitOpsError";
  }
}
