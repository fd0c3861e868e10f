"use client";
// Live view panel: the stream's state, whether the player is online, and events as they happen.
import { useEffect, useRef } from "react";
import { Badge } from "@/components/ui";
import { formatClock } from "./format";
import { statusTone } from "@/components/offer-parts/offer-math";
import type { LiveState } from "./use-watch-stream";
import styles from "./offers.module.css";

function StreamBadge({ state }: { state: LiveState }) {
  switch (state.status) {
    case "open":
      return <Badge tone="success">Live</Badge>;
    case "connecting":
      return <Badge tone="neutral">Connecting…</Badge>;
    case "reconnecting":
      return <Badge tone="warning">Reconnecting (attempt {state.attempt})</Badge>;
  }
}

export function LiveView({ state }: { state: LiveState }) {
  const listRef = useRef<HTMLOListElement>(null);
  const count = state.entries.length;
  // Keep the newest event in sight unless the reader scrolled up.
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
    if (nearBottom) list.scrollTop = list.scrollHeight;
  }, [count]);

  return (
    <section className={["ui-card", styles.live].join(" ")} aria-labelledby="live-view-title" data-testid="live-view">
      <div className={styles.liveHead}>
        <h2 className={styles.flush} id="live-view-title">
          Live view
        </h2>
        <span data-testid="stream-state" data-status={state.status} data-attempt={state.attempt}>
          <StreamBadge state={state} />
        </span>
      </div>
      <p className={styles.presence} data-testid="player-presence" data-online={state.online === null ? "unknown" : String(state.online)}>
        <span className={[styles.dot, state.online ? styles.dotOnline : ""].join(" ")} aria-hidden="true" />
        {state.online === null ? "Player status unknown" : state.online ? "Player is online (event stream connected)" : "Player is offline"}
      </p>
      {state.notice ? (
        <p className={styles.liveNotice} role="status">
          {state.notice} Retrying…
        </p>
      ) : null}
      {count === 0 ? (
        <p className={`muted ${styles.flush}`}>
          {state.status === "open" ? "Waiting for events…" : "No events yet."}
        </p>
      ) : null}
      {/* Focusable: the log scrolls, and a keyboard must reach what scrolled out of sight. */}
      <ol className={styles.liveLog} ref={listRef} tabIndex={0} aria-label="Live events" aria-live="polite" data-testid="live-log">
        {state.entries.map((entry) => (
          <li key={entry.key} className={styles.liveEntry} data-type={entry.type}>
            <time dateTime={entry.at} className={styles.liveTime}>
              {formatClock(entry.at)}
            </time>
            <Badge tone={entry.type === "connection" || entry.type === "stream" ? "accent" : statusTone(entry.type)}>{entry.type}</Badge>
            <span className={styles.liveText}>
              <strong>{entry.title}</strong>
              {entry.detail ? <span className="muted"> {entry.detail}</span> : null}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
