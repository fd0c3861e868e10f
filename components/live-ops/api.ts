// Browser-side calls of the portal's live-ops routes (app/api/offers/games/:gameId/definitions…), on the
// portal's one fetch client. Types only come from the offers contract: nothing of the admin client
// reaches the browser.
import type {
  AdminDefinitionChange,
  AdminDefinitionDetail,
  AdminDefinitionList,
  AudienceCount,
  AudienceCountRequest,
  DefinitionAction,
  DefinitionFunnel,
  OfferDefinitionDraft,
  SurfacingJob,
  SurfacingPreview,
} from "@/lib/offers-client/schemas";
import { apiFetch, ApiError, describeApiError } from "@/components/http/api-client";
import type { AdminGame, PlayerSummary } from "@/components/offers/api";

export type { AdminDefinitionChange, AdminDefinitionDetail, AdminDefinitionList, AudienceCount, DefinitionFunnel, SurfacingJob, SurfacingPreview, AdminGame, PlayerSummary };
export type DefinitionSummary = AdminDefinitionList["definitions"][number];
export type Definition = AdminDefinitionDetail["definition"];

const seg = encodeURIComponent;
const game = (gameId: string) => `/api/offers/games/${seg(gameId)}`;
const offer = (gameId: string, offerId: string) => `${game(gameId)}/definitions/${seg(offerId)}`;

export const liveOpsApi = {
  games: (signal?: AbortSignal) => apiFetch<{ games: AdminGame[] }>("/api/offers/games", { signal, cache: "no-store" }).then((a) => a.games),
  definitions: (gameId: string, signal?: AbortSignal) => apiFetch<AdminDefinitionList>(`${game(gameId)}/definitions`, { signal, cache: "no-store" }),
  definition: (gameId: string, offerId: string, signal?: AbortSignal) => apiFetch<AdminDefinitionDetail>(offer(gameId, offerId), { signal, cache: "no-store" }),
  create: (gameId: string, input: OfferDefinitionDraft & { offerId: string }) => apiFetch<AdminDefinitionChange>(`${game(gameId)}/definitions`, { method: "POST", json: input }),
  /** Saves over `version` (If-Match); someone else's change since answers 409 definition-changed. */
  update: (gameId: string, offerId: string, input: OfferDefinitionDraft, version: number) =>
    apiFetch<AdminDefinitionChange>(offer(gameId, offerId), { method: "PUT", json: input, headers: { "If-Match": `"${version}"` } }),
  changeStatus: (gameId: string, offerId: string, action: DefinitionAction, version: number) =>
    apiFetch<AdminDefinitionChange>(`${offer(gameId, offerId)}/${action}`, { method: "POST", headers: { "If-Match": `"${version}"` } }),
  preview: (gameId: string, offerId: string, playerId: string, signal?: AbortSignal) =>
    apiFetch<SurfacingPreview>(`${offer(gameId, offerId)}/preview`, { method: "POST", json: { playerId }, signal }),
  funnel: (gameId: string, offerId: string, signal?: AbortSignal) => apiFetch<DefinitionFunnel>(`${offer(gameId, offerId)}/funnel?days=14`, { signal, cache: "no-store" }),
  jobs: (gameId: string, offerId: string, signal?: AbortSignal) =>
    apiFetch<{ jobs: SurfacingJob[] }>(`${offer(gameId, offerId)}/jobs`, { signal, cache: "no-store" }).then((a) => a.jobs),
  audienceCount: (gameId: string, request: AudienceCountRequest, signal?: AbortSignal) =>
    apiFetch<AudienceCount>(`${game(gameId)}/audience/count`, { method: "POST", json: request, signal }),
  players: (gameId: string, q: string, signal?: AbortSignal) =>
    apiFetch<{ players: PlayerSummary[] }>(`${game(gameId)}/players?${new URLSearchParams({ q, limit: "10" })}`, { signal, cache: "no-store" }).then((a) => a.players),
};

export const liveOpsKeys = {
  games: ["live-ops", "games"] as const,
  definitions: (gameId: string) => ["live-ops", gameId, "definitions"] as const,
  definition: (gameId: string, offerId: string) => ["live-ops", gameId, "definition", offerId] as const,
  funnel: (gameId: string, offerId: string) => ["live-ops", gameId, "definition", offerId, "funnel"] as const,
  jobs: (gameId: string, offerId: string) => ["live-ops", gameId, "definition", offerId, "jobs"] as const,
  players: (gameId: string, q: string) => ["live-ops", gameId, "players", q] as const,
};

/** Sentences of the console for codes whose answer carries no detail of its own. */
const LIVE_OPS_CODES: Record<string, string> = {
  unauthenticated: "Your session has ended. Sign in again.",
  forbidden: "You need the liveops role to author offers.",
  "offer-not-found": "This game has no such offer.",
  "game-not-found": "The offers service has no such game.",
  "offers-admin-token-rejected": "The offers service refused the portal's admin token. Ask an administrator to check OFFERS_ADMIN_TOKEN.",
};

/** A sentence for the UI of a failed call; queries retry while the offers service is away, so it says so. */
export function describeLiveOpsError(error: unknown): string {
  if (error instanceof ApiError && error.retryable) return "The offers service is unavailable right now. Retrying…";
  return describeApiError(error, { codes: LIVE_OPS_CODES });
}

export const hasCode = (error: unknown, code: string) => error instanceof ApiError && error.code === code;
