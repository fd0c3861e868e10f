// Browser-side calls of the portal's offers proxy (same origin; the session cookie authenticates).
// Types only come from the offers schemas: nothing of the admin client reaches the browser.
import type { AdminGame, AdminPlayerState } from "@/lib/offers/schemas";

export type { AdminGame, AdminPlayerState };
export type AdminOffer = AdminPlayerState["offers"][number];
export interface PlayerSummary {
  playerId: string;
  username: string;
  updatedAt: string;
}

export class OffersProxyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }

  /** The offers service could not be reached (or answered 5xx). */
  get unavailable(): boolean {
    return this.code === "offers-service-unavailable" || this.status === 503;
  }
}

async function get<T>(url: string, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { Accept: "application/json" }, signal, cache: "no-store" });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new OffersProxyError(0, "portal-unreachable");
  }
  const body = (await res.json().catch(() => ({}))) as { message?: string };
  if (!res.ok) throw new OffersProxyError(res.status, body.message ?? `http-${res.status}`);
  return body as T;
}

const seg = encodeURIComponent;

export const offersApi = {
  games: (signal?: AbortSignal) => get<{ games: AdminGame[] }>("/api/offers/games", signal).then((a) => a.games),
  players: (gameId: string, q: string, signal?: AbortSignal) =>
    get<{ players: PlayerSummary[] }>(`/api/offers/games/${seg(gameId)}/players?${new URLSearchParams({ q, limit: "25" })}`, signal).then((a) => a.players),
  player: (gameId: string, playerId: string, signal?: AbortSignal) =>
    get<AdminPlayerState>(`/api/offers/games/${seg(gameId)}/players/${seg(playerId)}`, signal),
  watchUrl: (gameId: string, playerId: string) => `/api/offers/games/${seg(gameId)}/players/${seg(playerId)}/watch`,
};

/** A sentence for the UI of a failed call. */
export function describeError(error: unknown): string {
  if (error instanceof OffersProxyError) {
    if (error.unavailable) return "The offers service is unavailable right now. Retrying…";
    switch (error.code) {
      case "portal-unreachable":
        return "The portal could not be reached. Check your connection.";
      case "unauthenticated":
        return "Your session has ended. Sign in again.";
      case "forbidden":
        return "You need the support role to inspect offers.";
      case "player-not-found":
        return "No such player in this game.";
      case "offers-admin-token-rejected":
        return "The offers service refused the portal's admin token. Ask an administrator to check OFFERS_ADMIN_TOKEN.";
      case "offers-bad-response":
        return "The offers service answered something unexpected.";
    }
    return `Request failed: ${error.code}`;
  }
  return error instanceof Error ? error.message : String(error);
}

export const queryKeys = {
  games: ["offers", "games"] as const,
  players: (gameId: string, q: string) => ["offers", "players", gameId, q] as const,
  player: (gameId: string, playerId: string) => ["offers", "player", gameId, playerId] as const,
};
