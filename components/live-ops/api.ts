// Browser-side calls of the portal's live-ops routes (app/api/offers/games/:gameId/definitions…), on the
// portal's one fetch client. Types only come from the offers contract: nothing of the admin client
// reaches the browser.
import { useMemo } from "react";
import type {
  AdminDefinitionChange,
  AdminDefinitionDetail,
  AdminDefinitionList,
  AudienceCount,
  AudienceCountRequest,
  DefinitionAction,
  DefinitionFunnel,
  Environment,
  OfferDefinitionDraft,
  SurfacingJob,
  SurfacingPreview,
} from "@/lib/offers-client/schemas";
import { apiFetch, ApiError, describeApiError } from "@/components/http/api-client";
import { apiUrl } from "@/components/offers-environment/environment";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";
import type { AdminGame, PlayerSummary } from "@/components/offers/api";

export type { AdminDefinitionChange, AdminDefinitionDetail, AdminDefinitionList, AudienceCount, DefinitionFunnel, SurfacingJob, SurfacingPreview, AdminGame, PlayerSummary };
export type DefinitionSummary = AdminDefinitionList["definitions"][number];
export type Definition = AdminDefinitionDetail["definition"];

const seg = encodeURIComponent;
const game = (gameId: string) => `/api/offers/games/${seg(gameId)}`;
const offer = (gameId: string, offerId: string) => `${game(gameId)}/definitions/${seg(offerId)}`;

/** The console's calls, each about `environment` (the portal's offers routes take environment=live|test). */
export function liveOpsApi(environment: Environment) {
  const url = (path: string, params?: Record<string, string>) => apiUrl(path, environment, params);
  return {
    games: (signal?: AbortSignal) => apiFetch<{ games: AdminGame[] }>(url("/api/offers/games"), { signal, cache: "no-store" }).then((a) => a.games),
    definitions: (gameId: string, signal?: AbortSignal) => apiFetch<AdminDefinitionList>(url(`${game(gameId)}/definitions`), { signal, cache: "no-store" }),
    definition: (gameId: string, offerId: string, signal?: AbortSignal) => apiFetch<AdminDefinitionDetail>(url(offer(gameId, offerId)), { signal, cache: "no-store" }),
    create: (gameId: string, input: OfferDefinitionDraft & { offerId: string }) => apiFetch<AdminDefinitionChange>(url(`${game(gameId)}/definitions`), { method: "POST", json: input }),
    /** Saves over the definition as loaded (`etag`, its If-Match); someone else's change since answers 412 precondition-failed. */
    update: (gameId: string, offerId: string, input: OfferDefinitionDraft, etag: string) =>
      apiFetch<AdminDefinitionChange>(url(offer(gameId, offerId)), { method: "PUT", json: input, headers: { "If-Match": etag } }),
    changeStatus: (gameId: string, offerId: string, action: DefinitionAction, etag: string) =>
      apiFetch<AdminDefinitionChange>(url(`${offer(gameId, offerId)}/${action}`), { method: "POST", headers: { "If-Match": etag } }),
    preview: (gameId: string, offerId: string, playerId: string, signal?: AbortSignal) =>
      apiFetch<SurfacingPreview>(url(`${offer(gameId, offerId)}/preview`), { method: "POST", json: { playerId }, signal }),
    funnel: (gameId: string, offerId: string, signal?: AbortSignal) => apiFetch<DefinitionFunnel>(url(`${offer(gameId, offerId)}/funnel`, { days: "14" }), { signal, cache: "no-store" }),
    jobs: (gameId: string, offerId: string, signal?: AbortSignal) =>
      apiFetch<{ jobs: SurfacingJob[] }>(url(`${offer(gameId, offerId)}/jobs`), { signal, cache: "no-store" }).then((a) => a.jobs),
    audienceCount: (gameId: string, request: AudienceCountRequest, signal?: AbortSignal) =>
      apiFetch<AudienceCount>(url(`${game(gameId)}/audience/count`), { method: "POST", json: request, signal }),
    players: (gameId: string, q: string, signal?: AbortSignal) =>
      apiFetch<{ players: PlayerSummary[] }>(url(`${game(gameId)}/players`, { q, limit: "10" }), { signal, cache: "no-store" }).then((a) => a.players),
  };
}

/**
 * The console's query keys. The environment comes first after the feature, so live and test answers
 * never share a cache entry, and `game(gameId)` is the prefix of everything about one game in one
 * environment (what a change invalidates).
 */
export function liveOpsKeys(environment: Environment) {
  const game = (gameId: string) => ["live-ops", environment, gameId] as const;
  const definition = (gameId: string, offerId: string) => [...game(gameId), "definition", offerId] as const;
  return {
    games: ["live-ops", environment, "games"] as const,
    game,
    definitions: (gameId: string) => [...game(gameId), "definitions"] as const,
    definition,
    funnel: (gameId: string, offerId: string) => [...definition(gameId, offerId), "funnel"] as const,
    jobs: (gameId: string, offerId: string) => [...definition(gameId, offerId), "jobs"] as const,
    preview: (gameId: string, offerId: string, playerId: string | undefined, version: number) => [...definition(gameId, offerId), "preview", playerId, version] as const,
    players: (gameId: string, q: string) => [...game(gameId), "players", q] as const,
    /** The audience size of a rule being written (the request as JSON). */
    audienceCount: (gameId: string, request: string | null) => [...game(gameId), "audience-count", request] as const,
    /** The audience size a lifecycle confirmation states. */
    confirmCount: (gameId: string, offerId: string, version: number) => [...game(gameId), "audience-count", "confirm", offerId, version] as const,
  };
}

/** The console's calls and query keys in the page's environment (OffersEnvironmentProvider). */
export function useLiveOpsApi() {
  const { environment } = useOffersEnvironment();
  return useMemo(() => ({ api: liveOpsApi(environment), keys: liveOpsKeys(environment) }), [environment]);
}

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

/** Someone else changed what the person is changing since they loaded it (412: their If-Match is stale). */
export const isStale = (error: unknown) => hasCode(error, "precondition-failed");
