/**
 * How the GitLab adapter's requests go over the wire: @gitbeaker/rest builds every request (paths,
 * query, body, paging through the Link header) and hands it to this one handler, which keeps our
 * policy rather than gitbeaker's default (which retries 429/502 without waiting and ignores the
 * server's hints):
 * - 429 and 502/503/504 are retried (maxRetries) after `Retry-After` (capped), else `RateLimit-Reset`,
 *   else an exponential pause; a network failure is retried the same way;
 * - when an answer says `RateLimit-Remaining: 0`, the next request waits until `RateLimit-Reset` (capped);
 * - every request is bounded (timeoutMs);
 * - a refused request throws gitbeaker's GitbeakerRequestError, with the response, for the adapter to map.
 * The fetch and the sleep are injectable so tests drive the waits without waiting.
 */
import "server-only";
import { createRequesterFn, GitbeakerRequestError, type RequesterType, type ResourceOptions } from "@gitbeaker/requester-utils";
import { ScmError } from "./types";

export interface GitLabRequesterOptions {
  fetch?: typeof fetch;
  /** Longest wait for Retry-After or RateLimit-Reset (default 60 s). */
  maxWaitMs?: number;
  /** Retries of one request after 429, 502/503/504 or a network failure (default 3). */
  maxRetries?: number;
  sleep?: (ms: number) => Promise<void>;
  timeoutMs?: number;
}

const RETRIED = new Set([429, 502, 503, 504]);

export function gitlabRequester(options: GitLabRequesterOptions = {}): (resourceOptions: ResourceOptions) => RequesterType {
  const fetchImpl = options.fetch ?? fetch;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const maxRetries = options.maxRetries ?? 3;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const timeoutMs = options.timeoutMs ?? 30_000;
  /** When the server said no request is left: epoch ms before which we wait. */
  let pausedUntil = 0;

  const retryDelay = (res: Response, attempt: number): number => {
    const header = res.headers.get("retry-after");
    if (header) {
      const seconds = Number(header);
      const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
      if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), maxWaitMs);
    }
    const reset = Number(res.headers.get("ratelimit-reset"));
    if (Number.isFinite(reset) && reset > 0) return Math.min(Math.max(reset * 1000 - Date.now(), 0), maxWaitMs);
    return Math.min(1000 * 2 ** attempt, maxWaitMs);
  };

  const noteRateLimit = (res: Response): void => {
    const remaining = res.headers.get("ratelimit-remaining");
    if (remaining !== null && Number(remaining) <= 0) {
      const reset = Number(res.headers.get("ratelimit-reset"));
      pausedUntil = Number.isFinite(reset) && reset > 0 ? reset * 1000 : Date.now() + 1000;
    }
  };

  const handler = async (endpoint: string, raw?: Record<string, unknown>) => {
    const { prefixUrl, searchParams, method = "GET", headers, body } = (raw ?? {}) as { prefixUrl?: string; searchParams?: string; method?: string; headers?: Record<string, string>; body?: string };
    const url = new URL(endpoint, prefixUrl?.endsWith("/") ? prefixUrl : `${prefixUrl ?? ""}/`);
    url.search = searchParams ?? "";
    for (let attempt = 0; ; attempt++) {
      const wait = pausedUntil - Date.now();
      if (wait > 0) await sleep(Math.min(wait, maxWaitMs));
      const request = new Request(url, { method, headers: { Accept: "application/json", ...headers }, body, signal: AbortSignal.timeout(timeoutMs) });
      let res: Response;
      try {
        res = await fetchImpl(request);
      } catch (e) {
        if (attempt < maxRetries) {
          await sleep(Math.min(500 * 2 ** attempt, maxWaitMs));
          continue;
        }
        throw new ScmError("unavailable", `GitLab is not reachable: ${(e as Error).message}`);
      }
      noteRateLimit(res);
      if (RETRIED.has(res.status) && attempt < maxRetries) {
        await res.body?.cancel().catch(() => undefined);
        await sleep(retryDelay(res, attempt));
        continue;
      }
      if (!res.ok) {
        const text = await res.text().catch(() => "");
        let description = text;
        try {
          const j = JSON.parse(text) as { message?: unknown; error?: unknown };
          const m = j.message ?? j.error;
          description = typeof m === "string" ? m : JSON.stringify(m);
        } catch {
          /* plain text */
        }
        throw new GitbeakerRequestError(description.slice(0, 300), { cause: { description, request, response: res } });
      }
      const headersOut = Object.fromEntries(res.headers.entries());
      if (res.status === 204) return { body: null, headers: headersOut, status: res.status };
      const type = (res.headers.get("content-type") ?? "").split(";")[0].trim();
      // JSON for the API; anything else (a raw file) as text.
      const text = await res.text();
      const parsed = type === "application/json" ? ((text ? JSON.parse(text) : {}) as Record<string, unknown>) : text;
      return { body: parsed, headers: headersOut, status: res.status };
    }
  };

  // createRequesterFn applies gitbeaker's own option handling (auth header, JSON body, query) first: pass it on as is.
  return createRequesterFn((_resource, requestOptions) => Promise.resolve(requestOptions), handler);
}
