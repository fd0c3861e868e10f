"use client";
// The live view's connection: the browser's native EventSource on the portal's same-origin watch
// route. EventSource reconnects by itself after a dropped stream; when it gives up (an HTTP error
// closes it for good) we open a new one with exponential backoff. Attempts are counted from onerror
// and reset when the stream is healthy again (the `presence` event the offers service sends first).
import { useEffect, useRef, useState } from "react";

export type LiveStatus = "connecting" | "open" | "reconnecting";

export interface LiveEntry {
  /** Unique within the page. */
  key: string;
  /** surfaced | viewed | claimable | claimed | expired | queued (offer events), connection (the player's stream), stream (the live view itself) */
  type: string;
  /** When it happened (the service's time), ISO. */
  at: string;
  title: string;
  detail?: string;
  instanceId?: string;
}

export interface LiveState {
  status: LiveStatus;
  /** Consecutive failed attempts since the stream was last healthy. */
  attempt: number;
  /** Whether the player holds a live event stream; null until the first presence event. */
  online: boolean | null;
  /** Why the stream is not delivering (e.g. the offers service is unavailable). */
  notice: string | null;
  entries: LiveEntry[];
}

export const OFFER_EVENT_TYPES = ["surfaced", "viewed", "claimable", "claimed", "expired", "queued"] as const;
const MAX_ENTRIES = 300;

interface OfferEventData {
  seq?: number;
  instanceId?: string;
  fromStatus?: string | null;
  toStatus?: string;
  cause?: string;
  at?: string;
  offer?: { name?: string; offerId?: string; instanceId?: string };
}

interface ConnectionEventData {
  state?: "opened" | "closed";
  at?: string;
  reason?: string;
  instance?: string;
}

function parse<T>(event: MessageEvent): T | null {
  try {
    return JSON.parse(String(event.data)) as T;
  } catch {
    return null;
  }
}

export function backoffMs(attempt: number): number {
  const base = Math.min(1000 * 2 ** Math.max(0, attempt - 1), 30_000);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * Watches `url` (null: not now). `onChange` is told of every offer event, and of every reconnection
 * (events of the gap are not replayed to watchers, so the caller refreshes what it shows).
 */
export function useWatchStream(url: string | null, onChange?: (entry: LiveEntry | null) => void): LiveState {
  const [state, setState] = useState<LiveState>({ status: "connecting", attempt: 0, online: null, notice: null, entries: [] });
  const callback = useRef(onChange);
  useEffect(() => {
    callback.current = onChange;
  }, [onChange]);

  useEffect(() => {
    if (!url) return;
    let opened = false;
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let disposed = false;
    let counter = 0;

    const append = (entry: Omit<LiveEntry, "key">) =>
      setState((s) => ({ ...s, entries: [...s.entries, { ...entry, key: `${Date.now()}-${counter++}` }].slice(-MAX_ENTRIES) }));

    const open = () => {
      if (disposed) return;
      const es = new EventSource(url);
      source = es;

      es.addEventListener("presence", (event) => {
        const data = parse<{ connected?: boolean }>(event as MessageEvent);
        if (opened && attempt > 0) {
          append({ type: "stream", at: new Date().toISOString(), title: "Live view reconnected", detail: "events during the gap are not replayed; the page was refreshed" });
          callback.current?.(null);
        }
        opened = true;
        attempt = 0;
        setState((s) => ({ ...s, status: "open", attempt: 0, notice: null, online: Boolean(data?.connected) }));
      });

      es.addEventListener("unavailable", (event) => {
        const data = parse<{ message?: string; detail?: string }>(event as MessageEvent);
        const notice =
          data?.message === "offers-admin-token-rejected"
            ? "The offers service refused the portal's admin token."
            : data?.message === "offers-service-unavailable"
              ? "The offers service is unavailable."
              : `The watch stream failed: ${data?.message ?? "unknown error"}.`;
        setState((s) => ({ ...s, notice }));
      });

      es.addEventListener("connection", (event) => {
        const data = parse<ConnectionEventData>(event as MessageEvent);
        if (!data) return;
        const opened = data.state === "opened";
        setState((s) => ({ ...s, online: opened }));
        append({
          type: "connection",
          at: data.at ?? new Date().toISOString(),
          title: opened ? "Player connected to the event stream" : "Player's event stream closed",
          detail: [data.reason, data.instance ? `instance ${data.instance}` : undefined].filter(Boolean).join(" · ") || undefined,
        });
      });

      for (const type of OFFER_EVENT_TYPES) {
        es.addEventListener(type, (event) => {
          const data = parse<OfferEventData>(event as MessageEvent);
          if (!data) return;
          const name = data.offer?.name ?? data.offer?.offerId ?? data.instanceId ?? "Offer";
          const entry: Omit<LiveEntry, "key"> = {
            type,
            at: data.at ?? new Date().toISOString(),
            title: name,
            detail: `${data.fromStatus ?? "new"} → ${data.toStatus ?? type}${data.cause ? ` (${data.cause})` : ""}`,
            instanceId: data.instanceId ?? data.offer?.instanceId,
          };
          append(entry);
          callback.current?.({ ...entry, key: "" });
        });
      }

      es.onerror = () => {
        if (disposed || source !== es) return;
        attempt += 1;
        if (es.readyState === EventSource.CLOSED) {
          // An HTTP error (401/403/5xx) makes EventSource give up: try again ourselves, with backoff.
          es.close();
          retryTimer = setTimeout(open, backoffMs(attempt));
        }
        setState((s) => ({ ...s, status: "reconnecting", attempt }));
      };
    };

    open();
    return () => {
      disposed = true;
      clearTimeout(retryTimer);
      source?.close();
    };
  }, [url]);

  return state;
}
