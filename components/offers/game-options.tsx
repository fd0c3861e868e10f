// The options of a game picker on the support pages: a loading line, then each game by name and id.
import type { AdminGame } from "./api";

export function GameOptions({ games, pending }: { games: readonly AdminGame[] | undefined; pending: boolean }) {
  return (
    <>
      {pending ? <option value="">Loading games…</option> : null}
      {games?.map((g) => (
        <option key={g.gameId} value={g.gameId}>
          {g.name} ({g.gameId})
        </option>
      ))}
    </>
  );
}
