/**
 * A fetch-based reader of text/event-stream. The browser's EventSource cannot send an
 * Authorization header, which GET /v1/sse/connect requires, so this reads the stream itself.
 * Works in browsers and in Node 20 (global fetch, ReadableStream, TextDecoder).
 */

import { createParser, type EventSourceParser } from "eventsource-parser";

export interface StreamEvent {
  /** The `id:` of the event, when the server sent one. */
  id?: string;
  /** The `event:` type; "message" when absent, as in the HTML spec. */
  event: string;
  data: string;
}

/**
 * Incremental parser of the event-stream format (WHATWG HTML §9.2.6) over `eventsource-parser`:
 * feed it text chunks as they arrive, split anywhere; it calls back once per complete event and
 * per comment. Adds what EventSource does on top of the line parser: the default type "message"
 * and the last event id carried over to events that have none.
 */
export class EventStreamParser {
  private readonly parser: EventSourceParser;
  /** The last id seen, kept across events like EventSource's lastEventId. */
  lastEventId: string | undefined;
  /** A `retry:` value the server asked for, in milliseconds. */
  retryMs: number | undefined;

  constructor(onEvent: (event: StreamEvent) => void, onComment: (text: string) => void = () => {}) {
    this.parser = createParser({
      onEvent: (message) => {
        if (message.id !== undefined) this.lastEventId = message.id;
        onEvent({ id: this.lastEventId, event: message.event ?? "message", data: message.data });
      },
      onComment: (text) => onComment(text.trimStart()),
      onRetry: (ms) => {
        this.retryMs = ms;
      },
    });
  }

  push(chunk: string): void {
    this.parser.feed(chunk);
  }
}

export type StreamStatus = "connecting" | "open" | "reconnecting" | "closed";

export interface StreamState {
  status: StreamStatus;
  /** Consecutive failed or ended attempts since the last healthy connection. */
  attempt: number;
  /** Why the last connection ended, when it did. */
  reason?: string;
  /** When the next attempt starts (reconnecting only). */
  retryAt?: number;
}

export interface EventStreamOptions {
  url: string;
  /** Answers a valid access token (cached and renewed by the caller, see createJwtProvider). */
  getToken: (options?: { forceRefresh?: boolean }) => Promise<string>;
  onEvent: (event: StreamEvent) => void;
  onComment?: (text: string) => void;
  onStateChange?: (state: StreamState) => void;
  /** Resume after this id (otherwise starts at the live edge). */
  lastEventId?: string;
  fetch?: typeof fetch;
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Random source for jitter (tests pass a fixed one). */
  random?: () => number;
}

export interface EventStreamHandle {
  close(): void;
  readonly lastEventId: string | undefined;
  readonly state: StreamState;
  /** Resolves when the stream is closed for good (close() or replaced by a newer connection). */
  readonly closed: Promise<void>;
}

/** Delay before attempt n (1-based): exponential with full jitter, capped. */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The event a displaced stream gets when a newer connection of the same player takes over. */
export const REPLACED_EVENT = "replaced";

class HttpStatusError extends Error {
  constructor(readonly status: number, readonly code: string | undefined) {
    super(`HTTP ${status}${code ? ` ${code}` : ""}`);
  }
}

/**
 * Opens the stream and keeps it open: reconnects with exponential backoff and jitter after network
 * errors, server restarts and stream ends; renews the token on a JWT error; resumes with
 * Last-Event-ID so nothing is missed or repeated. Stops for good on close() or when the server says
 * a newer connection of the same player replaced this one: the event `replaced` (passed to onEvent;
 * its id is not an offer's and is not kept as lastEventId), the comment `:replaced` of servers from
 * before that event, or a 409 `stream-replaced` answer.
 */
export function connectEventStream(options: EventStreamOptions): EventStreamHandle {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const initialDelay = options.initialDelayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const random = options.random ?? Math.random;
  let lastEventId = options.lastEventId;
  let state: StreamState = { status: "connecting", attempt: 0 };
  let stopped = false;
  let controller: AbortController | undefined;
  let wake: (() => void) | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  const setState = (next: StreamState) => {
    state = next;
    options.onStateChange?.(next);
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function readOnce(forceRefresh: boolean): Promise<{ replaced: boolean }> {
    controller = new AbortController();
    const token = await options.getToken({ forceRefresh });
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      Accept: "text/event-stream",
      "Cache-Control": "no-cache",
    };
    if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
    const response = await doFetch(options.url, { headers, signal: controller.signal, cache: "no-store" });
    if (!response.ok || !response.body) {
      let code: string | undefined;
      try {
        const body = (await response.json()) as unknown;
        code = typeof body === "string" ? body : (body as { message?: string })?.message;
      } catch {}
      throw new HttpStatusError(response.status, code);
    }
    setState({ status: "open", attempt: 0 });
    let replaced = false;
    const parser = new EventStreamParser(
      (event) => {
        if (event.event === REPLACED_EVENT) replaced = true;
        else lastEventId = event.id ?? lastEventId;
        options.onEvent(event);
      },
      (text) => {
        if (text === "replaced") replaced = true;
        options.onComment?.(text);
      },
    );
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.push(value);
    }
    return { replaced };
  }

  (async () => {
    let attempt = 0;
    let forceRefresh = false;
    while (!stopped) {
      let reason: string;
      try {
        const { replaced } = await readOnce(forceRefresh);
        forceRefresh = false;
        if (replaced) {
          stopped = true;
          setState({ status: "closed", attempt: 0, reason: "replaced by a newer connection" });
          break;
        }
        reason = "stream ended";
        attempt = 0;
      } catch (error) {
        if (stopped) break;
        if (error instanceof HttpStatusError && error.status === 409 && error.code === "stream-replaced") {
          stopped = true;
          setState({ status: "closed", attempt: 0, reason: "replaced by a newer connection" });
          break;
        }
        if (error instanceof HttpStatusError) {
          reason = error.message;
          // Any JWT error: the next attempt asks for a fresh token.
          forceRefresh = error.status === 400 || error.status === 401;
        } else {
          reason = (error as Error).message || "network error";
        }
      }
      if (stopped) break;
      attempt += 1;
      const delay = backoffDelay(attempt, initialDelay, maxDelay, random);
      setState({ status: "reconnecting", attempt, reason, retryAt: Date.now() + delay });
      await sleep(delay);
    }
    if (state.status !== "closed") setState({ status: "closed", attempt: 0, reason: "closed" });
    resolveClosed();
  })();

  return {
    close() {
      stopped = true;
      controller?.abort();
      wake?.();
    },
    get lastEventId() {
      return lastEventId;
    },
    get state() {
      return state;
    },
    closed,
  };
}
