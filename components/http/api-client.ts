// The browser's one client of the portal's own API (same origin; the session cookie authenticates).
// Every failure becomes an ApiError. Every portal error answers one body (docs/operations/error-codes.md, "Portal
// error codes"): `{message: <code>, detail, issues?: [{path: string[], message}]}`, plus `requiredRole`
// on forbidden and `etag` on precondition-failed. The UI shows describeApiError(error): the server's
// `detail`, else a readable sentence for the code (a failure before the portal answered has no body).

export interface ApiIssue {
  /** Keys from the root of the part of the request that was wrong, e.g. ["updates", "0", "values"]. */
  path: string[];
  message: string;
}

/** What a failed call answered, as one error type for every feature of the UI. */
export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the portal could not be reached at all. */
    readonly status: number,
    /** The body's `message`: a stable code (`http-<status>` when the answer had none). */
    readonly code: string,
    /** The server's sentence for people, when it sent one. */
    readonly detail: string | null,
    readonly issues: ApiIssue[] = [],
    /** The wait the server asked for (Retry-After), in milliseconds. */
    readonly retryAfterMs: number | null = null,
    /** The role the call needs, when a 403 names one. */
    readonly requiredRole: string | null = null,
  ) {
    super(detail ?? code);
    this.name = "ApiError";
  }

  /** Worth trying again by itself: the server or a service behind it is briefly away. */
  get retryable(): boolean {
    return this.status === 503 || this.retryAfterMs !== null || this.code === "offers-service-unavailable";
  }
}

function issuesOf(value: unknown): ApiIssue[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((i): i is { path?: unknown; message: string } => typeof i === "object" && i !== null && typeof (i as { message?: unknown }).message === "string")
    .map((i) => ({ path: Array.isArray(i.path) ? i.path.map(String) : [], message: i.message }));
}

function retryAfterOf(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** The ApiError a failed answer stands for. */
export function apiErrorOf(status: number, body: unknown, headers?: Headers): ApiError {
  // Not the portal's body (a proxy's page, a bare status): the status is all there is.
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const message = typeof b.message === "string" && b.message ? b.message : `http-${status}`;
  const detail = typeof b.detail === "string" && b.detail ? b.detail : null;
  const requiredRole = typeof b.requiredRole === "string" ? b.requiredRole : null;
  return new ApiError(status, message, detail, issuesOf(b.issues), retryAfterOf(headers?.get("Retry-After") ?? null), requiredRole);
}

export interface ApiRequest extends Omit<RequestInit, "body"> {
  /** Sent as the JSON body (with its Content-Type). */
  json?: unknown;
  /** Sent as a multipart form (an upload; the browser sets its Content-Type). */
  form?: FormData;
}

/** Calls the portal API and answers the JSON body; throws ApiError for anything but a 2xx answer. */
export async function apiFetch<T>(url: string, { json, form, headers, ...init }: ApiRequest = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { Accept: "application/json", ...(json === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      ...(form === undefined ? {} : { body: form }),
    });
  } catch (error) {
    // An aborted call is not a failure of the portal: let it through as it is.
    if (init.signal?.aborted) throw error;
    throw new ApiError(0, "portal-unreachable", null);
  }
  const body: unknown = await response.json().catch(() => ({}));
  if (!response.ok) throw apiErrorOf(response.status, body, response.headers);
  return body as T;
}

/** Sentences for codes whose answer carries no `detail` (a failure before the portal answered). */
const FALLBACKS: Record<string, string> = {
  "portal-unreachable": "The portal could not be reached. Check your connection.",
  unauthenticated: "You are signed out. Sign in again.",
  forbidden: "You may not do this.",
  "cross-site-request": "The request was refused because it came from another site.",
  "database-unavailable": "The portal's database is not answering. Try again in a few seconds.",
  "internal-error": "Something went wrong on the server. Try again; if it keeps failing, tell the platform team.",
  "invalid-request": "The request is not valid.",
  "not-found": "Not found.",
};

function sentenceOfCode(code: string): string {
  if (FALLBACKS[code]) return FALLBACKS[code];
  if (/^http-\d+$/.test(code)) return `The request failed (HTTP ${code.slice(5)}).`;
  const words = code.replace(/[-_.]+/g, " ");
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}

/** "updates[0].values" for an issue's path. */
export function formatIssuePath(path: string[]): string {
  return path.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

export interface DescribeOptions {
  /** Sentences of this feature for some codes; they replace the generic ones (not the server's detail). */
  codes?: Record<string, string>;
}

/** What the UI says about a failure: the server's `detail`, or a readable sentence for the code; then the issues it names. */
export function describeApiError(error: unknown, options: DescribeOptions = {}): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  let text: string;
  if (error.detail) text = error.detail;
  else if (error.code === "forbidden" && error.requiredRole) text = `This needs the ${error.requiredRole} role.`;
  else if (options.codes?.[error.code]) text = options.codes[error.code];
  else text = sentenceOfCode(error.code);
  const issues = error.issues.map((i) => (i.path.length ? `${formatIssuePath(i.path)}: ${i.message}` : i.message)).join("; ");
  return issues ? `${text.replace(/[.:]$/, "")}: ${issues}` : text;
}

/** TanStack Query options: keep trying while the failure is one that passes (503, Retry-After), with backoff. */
export const retryWhileUnavailable = {
  retry: (failures: number, error: Error) => error instanceof ApiError && error.retryable && failures < 100,
  retryDelay: (attempt: number, error: Error) =>
    error instanceof ApiError && error.retryAfterMs !== null ? Math.min(Math.max(error.retryAfterMs, 1000), 30_000) : Math.min(1000 * 2 ** attempt, 10_000),
};
