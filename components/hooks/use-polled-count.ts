"use client";
// A count the navigation shows as a badge, polled so it changes without a reload (and at once on focus).
import { useQuery, type QueryKey } from "@tanstack/react-query";

export function usePolledCount(queryKey: QueryKey, fetchCount: (signal: AbortSignal) => Promise<number>, pollMs: number): number {
  const count = useQuery({
    queryKey,
    queryFn: ({ signal }) => fetchCount(signal),
    refetchInterval: pollMs,
    refetchOnWindowFocus: true,
    staleTime: 0,
    retry: false,
  });
  return count.data ?? 0;
}
