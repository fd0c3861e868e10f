"use client";
// The games of the offers service (the console's first choice), and one of them by id.
import { useQuery } from "@tanstack/react-query";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { useLiveOpsApi } from "./api";

export function useGames() {
  const { api, keys } = useLiveOpsApi();
  return useQuery({ queryKey: keys.games, queryFn: ({ signal }) => api.games(signal), staleTime: 60_000, ...retryWhileUnavailable });
}

export function useGame(gameId: string) {
  const games = useGames();
  return { ...games, game: games.data?.find((g) => g.gameId === gameId) };
}
