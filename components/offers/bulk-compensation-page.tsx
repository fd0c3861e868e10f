"use client";
// Incident compensation in bulk (support): the reward, a reason, and the players as a CSV of ids or an
// audience rule; a preview of what it would grant; then the job asked for, which waits for a second
// person. Below: the game's compensations with their progress, cancel and result.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Field, Input, Select, Textarea } from "@/components/ui";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { BULK_LIMIT_IN_WORDS, BULK_MAX_LIST_BYTES, MAX_SUPPORT_GRANT_AMOUNT, RewardKind, SUPPORT_REASON_MAX } from "@/lib/offers-client/schemas";
import { describeOffersError, useOffersApi, type BulkPreview } from "./api";
import { BulkJobs } from "./bulk-jobs";

const newKey = () => crypto.randomUUID();

export function BulkCompensationPage({ initialGame, me, canAsk }: { initialGame: string; me: string; canAsk: boolean }) {
  const { api, keys } = useOffersApi();
  const queryClient = useQueryClient();
  const games = useQuery({ queryKey: keys.games, queryFn: ({ signal }) => api.games(signal), ...retryWhileUnavailable });
  const [picked, setPicked] = useState(initialGame);
  const gameId = picked || games.data?.[0]?.gameId || "";
  const [kind, setKind] = useState<string>("coins");
  const [rewardId, setRewardId] = useState("");
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [source, setSource] = useState<"list" | "audience">("list");
  const [file, setFile] = useState<File | null>(null);
  const [audience, setAudience] = useState("");
  const [preview, setPreview] = useState<BulkPreview | null>(null);
  // One key per filled-in form: a double click or a retry answers the first job; a new form gets a new key.
  const [key, setKey] = useState(newKey);
  const tooLarge = file !== null && file.size > BULK_MAX_LIST_BYTES;

  const form = () => {
    const data = new FormData();
    data.set("kind", kind);
    data.set("rewardId", rewardId.trim());
    data.set("amount", amount.trim());
    data.set("reason", reason);
    if (source === "list" && file) data.set("players", file);
    if (source === "audience") data.set("audience", audience);
    return data;
  };
  const changed = () => {
    setPreview(null);
    setKey(newKey());
  };
  const previewing = useMutation({ mutationFn: () => api.previewBulk(gameId, form()), onSuccess: setPreview });
  const asking = useMutation({
    mutationFn: () => api.askBulk(gameId, form(), key),
    onSuccess: () => {
      setPreview(null);
      setKey(newKey());
      void queryClient.invalidateQueries({ queryKey: ["offers"] });
    },
  });
  const ready = Boolean(gameId && rewardId.trim() && amount.trim() && reason.trim() && (source === "list" ? file && !tooLarge : audience.trim())) && !previewing.isPending && !asking.isPending;

  return (
    <div className="stack" style={{ maxWidth: "100%", overflowWrap: "anywhere" }}>
      <div>
        <h1>Incident compensation</h1>
        <p className="muted">
          One reward to many players after an incident. Every compensation waits for a second person&apos;s approval (a lead or another support person), then each
          player is granted exactly once and their game server is told by webhook.
        </p>
      </div>
      {games.isError ? <Alert tone="error">{describeOffersError(games.error)}</Alert> : null}
      {canAsk ? (
        <Card title="New compensation">
          <form
            className="stack"
            onSubmit={(event) => {
              event.preventDefault();
              if (ready && preview) asking.mutate();
            }}
          >
            <Field label="Game">
              {(id) => (
                <Select id={id} value={gameId} onChange={(e) => (setPicked(e.target.value), changed())} disabled={!games.data?.length} data-testid="bulk-game-picker">
                  {games.isPending ? <option value="">Loading games…</option> : null}
                  {games.data?.map((g) => (
                    <option key={g.gameId} value={g.gameId}>
                      {g.name} ({g.gameId})
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Reward kind">
              {(id) => (
                <Select id={id} value={kind} onChange={(e) => (setKind(e.target.value), changed())} data-testid="bulk-kind">
                  {RewardKind.options.map((k) => (
                    <option key={k} value={k}>
                      {k}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Reward id" hint="A currency id of the game, or a reward id of one of its offers.">
              {(id) => <Input id={id} value={rewardId} maxLength={200} onChange={(e) => (setRewardId(e.target.value), changed())} data-testid="bulk-reward-id" />}
            </Field>
            <Field label="Amount per player" hint={`A whole number from 1 to ${MAX_SUPPORT_GRANT_AMOUNT.toLocaleString("en-US")}.`}>
              {(id) => <Input id={id} type="number" min={1} max={MAX_SUPPORT_GRANT_AMOUNT} step={1} value={amount} onChange={(e) => (setAmount(e.target.value), changed())} data-testid="bulk-amount" />}
            </Field>
            <Field label="Reason" hint={`Shown to the approver and sent to the game server; at most ${SUPPORT_REASON_MAX} characters.`}>
              {(id) => <Textarea id={id} value={reason} maxLength={SUPPORT_REASON_MAX} rows={2} onChange={(e) => (setReason(e.target.value), changed())} data-testid="bulk-reason" />}
            </Field>
            <Field label="Players">
              {(id) => (
                <Select id={id} value={source} onChange={(e) => (setSource(e.target.value as "list" | "audience"), changed())} data-testid="bulk-source">
                  <option value="list">A CSV of player ids</option>
                  <option value="audience">An audience rule</option>
                </Select>
              )}
            </Field>
            {source === "list" ? (
              <Field
                label="CSV of player ids"
                hint={`An optional playerId header, then ${BULK_LIMIT_IN_WORDS}. Repeats count once; unknown and invalid ids are reported, never granted.`}
                error={tooLarge ? `This file is larger than 32 MB: ${BULK_LIMIT_IN_WORDS}.` : undefined}
              >
                {(id) => <Input id={id} type="file" accept=".csv,.txt,text/csv,text/plain" onChange={(e) => (setFile(e.target.files?.[0] ?? null), changed())} data-testid="bulk-file" />}
              </Field>
            ) : (
              <Field label="Audience rule (JSON)" hint='The players it matches now, e.g. {"field": "daysInGame", "op": "gte", "value": 30}.'>
                {(id) => <Textarea id={id} value={audience} rows={3} maxLength={20_000} onChange={(e) => (setAudience(e.target.value), changed())} data-testid="bulk-audience" />}
              </Field>
            )}
            {previewing.isError ? <Alert tone="error">{describeOffersError(previewing.error)}</Alert> : null}
            {asking.isError ? <Alert tone="error">{describeOffersError(asking.error)}</Alert> : null}
            {asking.isSuccess ? <Alert tone="success">Asked for approval. A lead or another support person approves it below or under Approvals.</Alert> : null}
            {preview ? <PreviewSummary preview={preview} /> : null}
            <div className="row" style={{ flexWrap: "wrap" }}>
              <Button disabled={!ready} onClick={() => previewing.mutate()} data-testid="bulk-preview">
                {previewing.isPending ? "Counting…" : "Preview"}
              </Button>
              <Button type="submit" variant="primary" disabled={!ready || !preview} data-testid="bulk-ask">
                {asking.isPending ? "Asking…" : "Ask for approval"}
              </Button>
            </div>
          </form>
        </Card>
      ) : null}
      {gameId ? <BulkJobs gameId={gameId} me={me} title="Compensations" /> : null}
    </div>
  );
}

function PreviewSummary({ preview }: { preview: BulkPreview }) {
  const n = (value: number) => value.toLocaleString("en-US");
  return (
    <div className="stack" data-testid="bulk-preview-summary" role="status">
      <p>
        <strong data-testid="bulk-preview-players">{n(preview.players)}</strong> players get {n(preview.amount)} {preview.name} each: <strong data-testid="bulk-preview-total">{n(preview.totalAmount)}</strong> in
        total.
      </p>
      <p className="muted" data-testid="bulk-preview-rejected">
        {n(preview.duplicates)} repeated ids (counted once) · {n(preview.unknown)} unknown ids · {n(preview.invalid)} invalid ids (not granted)
      </p>
      {preview.unknownSample.length ? <p className="muted">Unknown: {preview.unknownSample.join(", ")}</p> : null}
      {preview.invalidSample.length ? <p className="muted">Invalid: {preview.invalidSample.map((s) => `line ${s.line}: ${s.value}`).join("; ")}</p> : null}
    </div>
  );
}
