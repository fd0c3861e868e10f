// Browser-side calls of the portal's offers proxy, on the portal's one fetch client.
// Types only come from the offers schemas: nothing of the admin client reaches the browser.
import type { AdminGame, AdminPlayerState } from "@/lib/offers-client/schemas";
import { apiFetch, ApiError, describeApiError } from "@/components/http/api-client";

export type { AdminGame, AdminPlayerState };
export type AdminOffer = AdminPlayerState["offers"][number];
export interface PlayerSummary {
  playerId: string;
  username: string;
  updatedAt: string;
}

const get = <T>(url: string, signal?: AbortSignal) => apiFetch<T>(url, { signal, cache: "no-store" });
const seg = encodeURIComponent;

export const offersApi = {
  games: (signal?: AbortSignal) => get<{ games: AdminGame[] }>("/api/offers/games", signal).then((a) => a.games),
  players: (gameId: string, q: string, signal?: AbortSignal) =>
    get<{ players: PlayerSummary[] }>(`/api/offers/games/${seg(gameId)}/players?${new URLSearchParams({ q, limit: "25" })}`, signal).then((a) => a.players),
  player: (gameId: string, playerId: string, signal?: AbortSignal) => get<AdminPlayerState>(`/api/offers/games/${seg(gameId)}/players/${seg(playerId)}`, signal),
  watchUrl: (gameId: string, playerId: string) => `/api/offers/games/${seg(gameId)}/players/${seg(playerId)}/watch`,
};

/** Sentences of the support dashboard for the proxy's codes. */
const OFFERS_CODES: Record<string, string> = {
  unauthenticated: "Your session has ended. Sign in again.",
  forbidden: "You need the support role to inspect offers.",
  "player-not-found": "No such player in this game.",
  "offers-admin-token-rejected": "The offers service refused the portal's admin token. Ask an administrator to check OFFERS_ADMIN_TOKEN.",
  "offers-bad-response": "The offers service answered something unexpected.",
};

/** A sentence for the UI of a failed call; the queries retry while the offers service is away, so it says so. */
export function describeOffersError(error: unknown): string {
  if (error instanceof ApiError && error.retryable) return "The offers service is unavailable right now. Retrying…";
  return describeApiError(error, { codes: OFFERS_CODES });
}

export function isPlayerNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.code === "player-not-found";
}

export const queryKeys = {
  games: ["offers", "games"] as const,
  players: (gameId: string, q: string) => ["offers", "players", gameId, q] as const,
  player: (gameId: string, playerId: string) => ["offers", "player", gameId, playerId] as const,
};
