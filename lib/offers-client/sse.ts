/**
 * A fetch-based reader of text/event-stream. The browser's EventSource cannot send an
 * Authorization header, which GET /v1/sse/connect requires, so this reads the stream itself.
 * Works in browsers and in Node 20 (global fetch, ReadableStream, TextDecoder).
 */

import { createParser, type EventSourceParser } from "eventsource-parser";
import { z } from "zod";

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
  /**
   * Watchdog: a connection on which nothing at all (event, comment, heartbeat, not even response
   * headers) has arrived for this long is taken for dead, aborted, and replaced by a new one that
   * resumes with Last-Event-ID. Default 45 s; see DEFAULT_SILENCE_TIMEOUT_MS. Keep it above the
   * service's heartbeat period (`SSE_HEARTBEAT_MS`), or healthy streams are cut.
   */
  silenceTimeoutMs?: number;
}

/** The service's heartbeat period: a `:heartbeat` comment every 30 s (interface, Events). */
const HEARTBEAT_PERIOD_MS = 30_000;

/**
 * 1.5 heartbeat periods. A healthy stream carries a byte at least once per period, and TCP delivers
 * in order, so one missed heartbeat already means the path or the instance is gone (a host cut off
 * sends no FIN or RST; TCP alone notices after minutes). The half period is the margin for a busy
 * instance, a slow link and a throttled timer; waiting for two or three missed heartbeats would only
 * make the failover that much slower.
 */
export const DEFAULT_SILENCE_TIMEOUT_MS = 1.5 * HEARTBEAT_PERIOD_MS;

/** setTimeout's limit (2^31 − 1 ms); larger values fire at once. */
const SilenceTimeoutMs = z.number().int().min(1).max(2 ** 31 - 1);

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
 * errors, server restarts, stream ends and silences longer than `silenceTimeoutMs` (a host cut off
 * closes nothing); renews the token on a JWT error; resumes with Last-Event-ID so nothing is missed
 * or repeated. Stops for good on close() or when the server says
 * a newer connection of the same player replaced this one: the event `replaced` (passed to onEvent;
 * its id is not an offer's and is not kept as lastEventId), the comment `:replaced` of servers from
 * before that event, or a 409 `stream-replaced` answer.
 */
export function connectEventStream(options: EventStreamOptions): EventStreamHandle {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const initialDelay = options.initialDelayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const random = options.random ?? Math.random;
  const silenceMs = SilenceTimeoutMs.parse(options.silenceTimeoutMs ?? DEFAULT_SILENCE_TIMEOUT_MS);
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

  // The watchdog: one timer per stream, set while a connection is attempted or open. A chunk only
  // notes its time; when the timer fires it compares, and sleeps again for the rest of the silence
  // if something came meanwhile, so a busy stream costs no timer calls per chunk.
  let lastByteAt = 0;
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  let wentSilent = false;
  const watch = () => {
    const quiet = Date.now() - lastByteAt;
    if (quiet < silenceMs) {
      watchdog = setTimeout(watch, silenceMs - quiet);
      return;
    }
    watchdog = undefined;
    wentSilent = true;
    controller?.abort();
  };
  const startWatchdog = () => {
    lastByteAt = Date.now();
    wentSilent = false;
    watchdog ??= setTimeout(watch, silenceMs);
  };
  const stopWatchdog = () => {
    clearTimeout(watchdog);
    watchdog = undefined;
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** Whether the current attempt got a stream (200 with a body). */
  let opened = false;

  async function readOnce(forceRefresh: boolean): Promise<{ replaced: boolean }> {
    controller = new AbortController();
    opened = false;
    const token = await options.getToken({ forceRefresh });
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      Accept: "text/event-stream",
      "Cache-Control": "no-cache",
    };
    if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
    // From the request on: a host cut off may never answer it either.
    startWatchdog();
    try {
      return await readResponse(await doFetch(options.url, { headers, signal: controller.signal, cache: "no-store" }));
    } finally {
      stopWatchdog();
    }
  }

  async function readResponse(response: Response): Promise<{ replaced: boolean }> {
    lastByteAt = Date.now();
    if (!response.ok || !response.body) {
      let code: string | undefined;
      try {
        const body = (await response.json()) as unknown;
        code = typeof body === "string" ? body : (body as { message?: string })?.message;
      } catch {}
      throw new HttpStatusError(response.status, code);
    }
    opened = true;
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
    // Bytes, not decoded text, so a chunk counts even when it ends inside a character.
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      lastByteAt = Date.now();
      const text = decoder.decode(value, { stream: true });
      if (text) parser.push(text);
    }
    const rest = decoder.decode();
    if (rest) parser.push(rest);
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
        if (wentSilent) {
          reason = `no data for ${silenceMs} ms (heartbeat missed): connection dropped`;
        } else if (error instanceof HttpStatusError) {
          reason = error.message;
          // Any JWT error: the next attempt asks for a fresh token.
          forceRefresh = error.status === 400 || error.status === 401;
        } else {
          reason = (error as Error).message || "network error";
        }
      }
      if (stopped) break;
      // A connection that was open counts as healthy, however it ended: the backoff starts over.
      if (opened) attempt = 0;
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
      stopWatchdog();
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
