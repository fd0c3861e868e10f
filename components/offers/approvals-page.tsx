"use client";
// The queue of support grants waiting for a second person, per game: for leads and support staff.
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Alert, Card, Field, Select } from "@/components/ui";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { describeOffersError, useOffersApi } from "./api";
import { GameOptions } from "./game-options";
import { PendingApprovals } from "./pending-approvals";
import { BulkJobs } from "./bulk-jobs";
import { SupportThresholdsCard } from "./support-thresholds-card";

/** `canSetThresholds`: the signed-in user is a lead (who sets when grants wait for a second person). */
export function ApprovalsPage({ initialGame, me, canSetThresholds = false }: { initialGame: string; me: string; canSetThresholds?: boolean }) {
  const { api, keys } = useOffersApi();
  const games = useQuery({ queryKey: keys.games, queryFn: ({ signal }) => api.games(signal), ...retryWhileUnavailable });
  const [picked, setPicked] = useState(initialGame);
  const selected = picked || games.data?.[0]?.gameId || "";
  return (
    <div className="stack">
      <div>
        <h1>Support approvals</h1>
        <p className="muted">Compensation grants above a game&apos;s thresholds, and every incident compensation in bulk, wait here for a second person. You never decide a grant you asked for.</p>
      </div>
      {games.isError ? <Alert tone="error">{describeOffersError(games.error)}</Alert> : null}
      <Card>
        <Field label="Game">
          {(id) => (
            <Select id={id} value={selected} onChange={(event) => setPicked(event.target.value)} disabled={!games.data?.length} data-testid="approvals-game-picker">
              <GameOptions games={games.data} pending={games.isPending} />
            </Select>
          )}
        </Field>
      </Card>
      {selected ? <PendingApprovals gameId={selected} me={me} /> : null}
      {selected ? <BulkJobs gameId={selected} me={me} status="pending" title="Incident compensations waiting for approval" /> : null}
      {selected ? <SupportThresholdsCard gameId={selected} canEdit={canSetThresholds} /> : null}
    </div>
  );
}
