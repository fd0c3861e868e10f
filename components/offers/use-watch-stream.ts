"use client";
// The live view's connection: the browser's native EventSource on the portal's same-origin watch
// route. EventSource reconnects by itself after a dropped stream; when it gives up (an HTTP error
// closes it for good) we open a new one with exponential backoff. Attempts are counted from onerror
// and reset when the stream is healthy again (the `presence` event the offers service sends first).
import { useEffect, useRef, useState } from "react";
import { moveWords } from "./timeline/timeline-words";

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

export const OFFER_EVENT_TYPES = ["surfaced", "viewed", "claimable", "claimed", "expired", "queued", "revoked", "extended"] as const;
const MAX_ENTRIES = 300;

interface OfferEventData {
  seq?: number;
  instanceId?: string;
  fromStatus?: string | null;
  toStatus?: string;
  cause?: string;
  at?: string;
  /** Who moved the offer when a person did (support). */
  actor?: string | null;
  offer?: { name?: string; offerId?: string; instanceId?: string };
}

interface ConnectionEventData {
  state?: "opened" | "closed";
  at?: string;
  reason?: string;
  instance?: string;
}

/** One key per offer event, whether it came from the player's history or live: merging drops the twin. */
export function offerEventKey(instanceId: string | undefined, seq: number | undefined): string | null {
  return instanceId && typeof seq === "number" ? `offer-${instanceId}-${seq}` : null;
}

interface HistoryOffer {
  instanceId: string;
  name?: string;
  offerId?: string;
  events: Array<{ seq: number; type: string; fromStatus: string | null; toStatus: string; cause: string; at: string; actor?: string | null }>;
}

/** The player's recorded offer events as live-view entries, oldest first: what happened before the view connected. */
export function historyEntries(offers: HistoryOffer[]): LiveEntry[] {
  return offers
    .flatMap((o) =>
      o.events.map((e) => ({
        key: offerEventKey(o.instanceId, e.seq) ?? `offer-${o.instanceId}-${e.at}`,
        type: e.type,
        at: e.at,
        title: o.name ?? o.offerId ?? o.instanceId,
        detail: moveWords(e),
        instanceId: o.instanceId,
      })),
    )
    .sort((a, b) => a.at.localeCompare(b.at));
}

/** History and live entries in time order, each event once, the newest MAX_ENTRIES kept. */
export function mergeEntries(history: LiveEntry[], live: LiveEntry[]): LiveEntry[] {
  const seen = new Set<string>();
  const out: LiveEntry[] = [];
  for (const e of [...history, ...live]) {
    if (seen.has(e.key)) continue;
    seen.add(e.key);
    out.push(e);
  }
  // Stable: entries with the same time keep history-then-live order.
  return out
    .map((e, i) => [e, i] as const)
    .sort(([a, i], [b, j]) => a.at.localeCompare(b.at) || i - j)
    .map(([e]) => e)
    .slice(-MAX_ENTRIES);
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

    const append = (entry: Omit<LiveEntry, "key">, key?: string | null) =>
      setState((s) => ({ ...s, entries: [...s.entries, { ...entry, key: key ?? `live-${Date.now()}-${counter++}` }].slice(-MAX_ENTRIES) }));

    const open = () => {
      if (disposed) return;
      const es = new EventSource(url);
      source = es;

      es.addEventListener("presence", (event) => {
        const data = parse<{ connected?: boolean }>(event as MessageEvent);
        if (opened && attempt > 0) {
          append({ type: "stream", at: new Date().toISOString(), title: "Live view reconnected", detail: "events during the gap come from the player's history" });
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
            detail: moveWords({ type, fromStatus: data.fromStatus ?? null, toStatus: data.toStatus ?? type, cause: data.cause ?? "", actor: data.actor }),
            instanceId: data.instanceId ?? data.offer?.instanceId,
          };
          const key = offerEventKey(entry.instanceId, data.seq);
          append(entry, key);
          callback.current?.({ ...entry, key: key ?? "" });
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
