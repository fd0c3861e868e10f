"use client";
// Activate, pause, archive and restore to draft, each confirmed in a dialog that says what happens and
// how many players the audience matches now (within the rollout). The change is made on the definition as
// shown (its ETag as If-Match); someone else's change in between is said, with a reload.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, FormDialog } from "@/components/ui";
import type { DefinitionAction } from "@/lib/offers-client/schemas";
import { describeLiveOpsError, isStale, useLiveOpsApi, type Definition } from "./api";
import { formatCount, formatUtc } from "./format";

const LABELS: Record<DefinitionAction, string> = { activate: "Activate", pause: "Pause", archive: "Archive", restore: "Restore to draft" };

/** The actions a status allows, in the order they are offered. */
export function actionsFor(status: Definition["status"]): DefinitionAction[] {
  switch (status) {
    case "draft":
      return ["activate", "archive"];
    case "active":
      return ["pause", "archive"];
    case "paused":
      return ["activate", "restore", "archive"];
    case "archived":
      return ["restore"];
  }
}

/** What the confirmation says will happen, given how many players match now (null while counting: it says so, no number yet). */
export function consequence(action: DefinitionAction, definition: Definition, matching: number | null, now = Date.now()): string {
  const players = matching === null ? null : `${formatCount(matching)} ${matching === 1 ? "player" : "players"}`;
  const matchNow = players === null ? "counting who matches now…" : `${players} ${matching === 1 ? "matches" : "match"} now`;
  const targeted = definition.audience !== null;
  const opens = definition.schedule.startsAt && Date.parse(definition.schedule.startsAt) > now ? definition.schedule.startsAt : null;
  switch (action) {
    case "activate":
      if (!targeted) return "It has no audience, so it surfaces for nobody by itself: game servers assign it.";
      if (opens) return `Its window opens at ${formatUtc(opens)}; from then it surfaces for the players who match (${players === null ? "counting…" : `${players} now`}).`;
      return players === null
        ? "This will surface for the players who match now (counting…), and for every player who matches later."
        : `This will surface for ${players} now, and for every player who matches later.`;
    case "pause":
      return `It stops surfacing by itself (${matchNow}). Offers already given stay with their players.`;
    case "archive":
      return `It is never assigned again, by itself or by a game server, until restored (${matchNow}). Offers already given stay.`;
    case "restore":
      return `Back to draft: it does not surface by itself until activated again (${matchNow}).`;
  }
}

export function LifecycleActions({ gameId, definition, onChanged }: { gameId: string; definition: Definition; onChanged: () => void }) {
  const [action, setAction] = useState<DefinitionAction | null>(null);
  const queryClient = useQueryClient();
  const { api, keys } = useLiveOpsApi();
  const count = useQuery({
    queryKey: keys.confirmCount(gameId, definition.offerId, definition.version),
    queryFn: ({ signal }) => api.audienceCount(gameId, { audience: definition.audience!, rollout: definition.rollout, offerId: definition.offerId }, signal),
    enabled: action !== null && definition.audience !== null,
    staleTime: 5_000,
  });
  const change = useMutation({
    mutationFn: (chosen: DefinitionAction) => api.changeStatus(gameId, definition.offerId, chosen, definition.etag),
    onSuccess: async () => {
      setAction(null);
      await queryClient.invalidateQueries({ queryKey: keys.game(gameId) });
      onChanged();
    },
  });
  const stale = isStale(change.error);
  const close = () => {
    setAction(null);
    change.reset();
  };
  return (
    <>
      <div className="row" data-testid="lifecycle-actions">
        {actionsFor(definition.status).map((a) => (
          <Button key={a} variant={a === "activate" ? "primary" : a === "archive" ? "danger" : "default"} onClick={() => setAction(a)}>
            {LABELS[a]}
          </Button>
        ))}
      </div>
      <FormDialog
        open={action !== null}
        onClose={close}
        title={action ? `${LABELS[action]} ${definition.name}?` : ""}
        submitLabel={action ? LABELS[action] : ""}
        pendingLabel="Working…"
        submitVariant={action === "archive" ? "danger" : "primary"}
        submitTestId="confirm-action"
        focusSubmit
        pending={change.isPending}
        error={
          change.isError ? (
            <>
              {stale ? "Someone changed this offer since you opened it; reload to see their change." : describeLiveOpsError(change.error)}{" "}
              {stale ? (
                <Button size="small" onClick={() => window.location.reload()}>
                  Reload
                </Button>
              ) : null}
            </>
          ) : null
        }
        onSubmit={() => action && change.mutateAsync(action)}
      >
        {action ? (
          <>
            <p data-testid="action-consequence">{consequence(action, definition, definition.audience === null ? 0 : (count.data?.matching ?? null))}</p>
            {definition.audience && definition.rollout < 100 ? <p className="muted">Counted within its {definition.rollout}% rollout.</p> : null}
            {count.isError ? <Alert tone="warning">The audience could not be counted: {describeLiveOpsError(count.error)}</Alert> : null}
          </>
        ) : null}
      </FormDialog>
    </>
  );
}
