"use client";
// Support dashboard start: pick a game, find a player by id or username, open the player's page.
import { Link } from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { Alert, Card, Button, Field, Input, Select, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { useDebounced } from "@/components/hooks/use-debounced";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";
import { maxLengthOf, sentenceResolver, tooLongSentence } from "@/components/forms/sentences";
import { IDENTIFIER_RULE_IN_WORDS, PlayerSearchText, isIdentifier } from "@/lib/offers-client/schemas";
import { describeOffersError, useOffersApi } from "./api";
import { GameOptions } from "./game-options";
import { formatTime } from "./format";
import styles from "./offers.module.css";
import { PendingApprovals } from "./pending-approvals";

const SEARCH_MAX = maxLengthOf(PlayerSearchText);
const finderSchema = z.object({ game: z.string(), player: z.string().trim().min(1, "Name a player by id or username.").max(SEARCH_MAX) });
type Finder = z.input<typeof finderSchema>;
const resolver = sentenceResolver(finderSchema, { player: "A player id or username" });
/** What the finder says of an id it cannot open: the offers contract's rule, in words. */
export const PLAYER_ID_RULE = `A player id is ${IDENTIFIER_RULE_IN_WORDS}. To find a player by username, pick them from the list below.`;

export function SupportHome({ initialGame, initialQuery, me = null }: { initialGame: string; initialQuery: string; me?: string | null }) {
  const router = useRouter();
  const { href } = useOffersEnvironment();
  const { api, keys } = useOffersApi();
  const form = useForm<Finder, unknown, z.output<typeof finderSchema>>({ resolver, defaultValues: { game: initialGame, player: initialQuery } });
  const [gameId, typed] = useWatch({ control: form.control, name: ["game", "player"] });
  const typedQuery = typed.trim();
  // Past the search's limit nothing is asked (the server would refuse it): the field says the limit instead.
  const tooLong = typedQuery.length > SEARCH_MAX ? tooLongSentence("A player id or username", SEARCH_MAX, typedQuery.length) : undefined;
  const query = useDebounced(tooLong ? "" : typedQuery, 250);

  const games = useQuery({ queryKey: keys.games, queryFn: ({ signal }) => api.games(signal), ...retryWhileUnavailable });
  const selected = gameId || games.data?.[0]?.gameId || "";

  // The search is debounced; the URL is kept in step so a search can be shared and survives a reload. The
  // URL follows the typing at once, not the debounced query: a replaceState 250 ms later would cancel the
  // navigation of a player link clicked in between (the router treats it as a navigation of its own).
  useEffect(() => {
    const params = new URLSearchParams();
    if (selected) params.set("game", selected);
    if (typedQuery) params.set("q", typedQuery);
    const url = href(`/offers${params.size ? `?${params}` : ""}`);
    if (url !== `${window.location.pathname}${window.location.search}`) window.history.replaceState(null, "", url);
  }, [selected, typedQuery, href]);

  const players = useQuery({
    queryKey: keys.players(selected, query),
    queryFn: ({ signal }) => api.players(selected, query, signal),
    enabled: Boolean(selected) && !tooLong,
    placeholderData: keepPreviousData,
    ...retryWhileUnavailable,
  });
  const game = games.data?.find((g) => g.gameId === selected);
  const playerHref = (playerId: string) => href(`/offers/${encodeURIComponent(selected)}/${encodeURIComponent(playerId)}`);

  return (
    <div className="stack">
      <div>
        <h1>Offers</h1>
        <p className="muted">Inspect a player&apos;s offers, rewards and ledger, and watch their events live.</p>
      </div>

      {games.isError ? (
        <Alert tone="error">{describeOffersError(games.error)}</Alert>
      ) : games.failureCount > 0 && games.failureReason ? (
        <Alert tone="warning">{describeOffersError(games.failureReason)}</Alert>
      ) : null}

      <Card>
        <form
          className={styles.finder}
          noValidate
          onSubmit={form.handleSubmit(({ player: id }) => {
            if (!selected) return;
            // An exact id (or the only match) opens the player directly.
            const exact = players.data?.find((p) => p.playerId === id || p.username.toLowerCase() === id.toLowerCase());
            const only = players.data?.length === 1 && query === id ? players.data[0] : undefined;
            const playerId = (exact ?? only)?.playerId ?? id;
            if (!isIdentifier(playerId)) {
              form.setError("player", { type: "validate", message: PLAYER_ID_RULE });
              return;
            }
            router.push(playerHref(playerId));
          })}
        >
          <Field label="Game">
            {(id) => (
              <Select id={id} {...form.register("game")} value={selected} disabled={!games.data?.length} data-testid="game-picker">
                <GameOptions games={games.data} pending={games.isPending} />
              </Select>
            )}
          </Field>
          <div className={styles.finderSearch}>
            <Field label="Player" hint="Player id or username; Enter opens an exact id." error={tooLong ?? form.formState.errors.player?.message}>
              {(id) => <Input id={id} type="search" placeholder="e.g. demo-player-1 or Aria" autoComplete="off" data-testid="player-search" {...form.register("player")} />}
            </Field>
          </div>
          <div>
            <Button type="submit" variant="primary" disabled={!selected || !typedQuery}>
              Open player
            </Button>
          </div>
        </form>
        {game ? (
          <p className={`muted ${styles.gameFacts}`}>
            {game.players} players · {game.maxOfferSlots} offer slots · currencies: {game.currencies.map((c) => c.name).join(", ") || "none"}
          </p>
        ) : null}
      </Card>

      {selected ? <PendingApprovals gameId={selected} me={me} /> : null}

      <Card title={query ? `Players matching “${query}”` : "Players"}>
        {players.isError ? (
          <Alert tone="error">{describeOffersError(players.error)}</Alert>
        ) : players.failureCount > 0 && players.failureReason ? (
          <Alert tone="warning">{describeOffersError(players.failureReason)}</Alert>
        ) : null}
        {players.isPending && selected ? <p className="muted">Loading…</p> : null}
        {players.data && players.data.length === 0 ? <p className="muted">No player matches.</p> : null}
        {players.data && players.data.length > 0 ? (
          <Table label={query ? `Players matching “${query}”` : "Players"} data-testid="player-results">
            <TableHeader>
              <TableRow>
                <TableHead>Player id</TableHead>
                <TableHead>Username</TableHead>
                <TableHead>Last update</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {players.data.map((p) => (
                <TableRow key={p.playerId}>
                  <TableCell>
                    <Link href={playerHref(p.playerId)}>{p.playerId}</Link>
                  </TableCell>
                  <TableCell>{p.username || <span className="muted">—</span>}</TableCell>
                  <TableCell>{formatTime(p.updatedAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
      </Card>
    </div>
  );
}
