"use client";
// "Preview as a player": find a player of the game, and see whether the offer would surface for them
// now — where to (a free slot or the queue) and every check with its detail, the failing one marked.
import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Button, Field, Input } from "@/components/ui";
import { useDebounced } from "@/components/hooks/use-debounced";
import { describeLiveOpsError, useLiveOpsApi, type PlayerSummary, type SurfacingPreview } from "./api";
import styles from "./live-ops.module.css";

const CHECK_LABELS: Record<string, string> = {
  status: "Status",
  schedule: "Schedule",
  audience: "Audience",
  rollout: "Rollout",
  "open-instance": "Not already given",
  activations: "Activations",
  cooldown: "Cooldown",
  stock: "Stock",
};

export function PlayerPreview({ gameId, offerId, version }: { gameId: string; offerId: string; version: number }) {
  const [typed, setTyped] = useState("");
  const [player, setPlayer] = useState<PlayerSummary | null>(null);
  const q = useDebounced(typed.trim(), 250);
  const { api, keys } = useLiveOpsApi();
  const players = useQuery({
    queryKey: keys.players(gameId, q),
    queryFn: ({ signal }) => api.players(gameId, q, signal),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
  });
  // A new search drops the verdict: it spoke of the player picked before, not of what is typed now.
  const pick = (text: string) => {
    setTyped(text);
    setPlayer(null);
  };
  const preview = useQuery({
    queryKey: keys.preview(gameId, offerId, player?.playerId, version),
    queryFn: ({ signal }) => api.preview(gameId, offerId, player!.playerId, signal),
    enabled: player !== null,
  });
  return (
    <div className="stack" data-testid="player-preview">
      <Field label="Player" hint="id or username">
        {(id) => <Input id={id} type="search" autoComplete="off" placeholder="e.g. demo-player-3 or Cleo" value={typed} onChange={(e) => pick(e.target.value)} />}
      </Field>
      {players.isError ? <Alert tone="error">{describeLiveOpsError(players.error)}</Alert> : null}
      {q && players.data ? (
        players.data.length === 0 ? (
          players.isPlaceholderData ? null : (
          <p className={`muted ${styles.flush}`} role="status" data-testid="no-such-player">
            No such player: no id or username of this game matches “{q}”.
          </p>
          )
        ) : (
          <ul className={styles.playerPick} aria-label="Players found">
            {players.data.map((p) => (
              <li key={p.playerId}>
                <Button size="small" variant={player?.playerId === p.playerId ? "primary" : "default"} aria-pressed={player?.playerId === p.playerId} onClick={() => setPlayer(p)}>
                  Preview as {p.username || p.playerId} ({p.playerId})
                </Button>
              </li>
            ))}
          </ul>
        )
      ) : null}
      {preview.isError ? <Alert tone="error">{describeLiveOpsError(preview.error)}</Alert> : null}
      {player && preview.isPending ? <p className="muted">Checking…</p> : null}
      {player && preview.data ? <PreviewResult player={player} preview={preview.data} /> : null}
    </div>
  );
}

export function PreviewResult({ player, preview }: { player: PlayerSummary; preview: SurfacingPreview }) {
  const who = player.username || player.playerId;
  const failed = preview.checks.find((c) => c.check === preview.failed);
  return (
    <div className="stack" data-testid="preview-result" data-would-surface={preview.wouldSurface}>
      <p className={styles.flush} role="status">
        {preview.wouldSurface ? (
          <>
            <strong>Would surface for {who} now</strong>,{" "}
            {preview.as === "inQueue" ? "as inQueue: their offer slots are full, so it waits in their queue." : "as surfaced: they have a free offer slot."}
          </>
        ) : (
          <>
            <strong>Would not surface for {who} now</strong>: {CHECK_LABELS[preview.failed ?? ""] ?? preview.failed} — {failed?.detail}.
          </>
        )}
        {preview.variantId ? ` Their variant: ${preview.variantId}.` : ""}
      </p>
      <ol className={styles.checks} aria-label="Checks, in order">
        {preview.checks.map((c) => {
          const failing = c.check === preview.failed;
          return (
            <li key={c.check} className={failing ? `${styles.check} ${styles.checkFailed}` : styles.check} data-testid="preview-check" data-check={c.check} data-passed={c.passed} aria-current={failing ? "true" : undefined}>
              <span aria-hidden="true">{c.passed ? "✓" : "✕"}</span>
              <span>
                {CHECK_LABELS[c.check] ?? c.check}
                <span className="visually-hidden">{c.passed ? ": passes" : ": fails"}</span>
              </span>
              <span>{c.detail}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
