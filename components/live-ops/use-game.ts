"use client";
// The games of the offers service (the console's first choice), and one of them by id.
import { useQuery } from "@tanstack/react-query";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { liveOpsApi, liveOpsKeys } from "./api";

export function useGames() {
  return useQuery({ queryKey: liveOpsKeys.games, queryFn: ({ signal }) => liveOpsApi.games(signal), staleTime: 60_000, ...retryWhileUnavailable });
}

export function useGame(gameId: string) {
  const games = useGames();
  return { ...games, game: games.data?.find((g) => g.gameId === gameId) };
}
