// Browser-side calls of the portal's offers proxy, on the portal's one fetch client.
// Types only come from the offers schemas: nothing of the admin client reaches the browser.
import { useMemo } from "react";
import type { z } from "zod";
import type {
  AdminGame,
  AdminPlayerState,
  AdminPlayerSummary,
  BulkCompensation,
  BulkCompensationList,
  BulkJobStatus,
  BulkPreview,
  Environment,
  Offer,
  SupportGrant,
  SupportGrantList,
  SupportGrantStatus,
  SupportOfferAction,
  SupportOfferActionResponse,
  SupportResendResponse,
  SupportThresholds,
  TimelinePage,
  TimelineQuery,
  WebhookDeliveryPage,
} from "@/lib/offers-client/schemas";
import type { CompensationBody, ExtendOfferBody, OfferActionBody, ReofferBody, ResendDeliveriesBody } from "@/lib/portal/support-shapes";
import { apiFetch, ApiError, describeApiError } from "@/components/http/api-client";
import { apiUrl } from "@/components/offers-environment/environment";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";

export type { AdminGame, AdminPlayerState, BulkCompensation, BulkPreview, SupportGrant };
export type OfferActionResult = SupportOfferActionResponse;
export type AdminOffer = AdminPlayerState["offers"][number];
/** One player of a search, as the players route declares it. */
export type PlayerSummary = z.infer<typeof AdminPlayerSummary>;

const seg = encodeURIComponent;

/** The calls of the support pages, each about `environment` (the portal's offers routes take environment=live|test). */
export function offersApi(environment: Environment) {
  const get = <T>(path: string, signal?: AbortSignal, params?: Record<string, string>) => apiFetch<T>(apiUrl(path, environment, params), { signal, cache: "no-store" });
  const player = (gameId: string, playerId: string) => `/api/offers/games/${seg(gameId)}/players/${seg(playerId)}`;
  return {
    games: (signal?: AbortSignal) => get<{ games: AdminGame[] }>("/api/offers/games", signal).then((a) => a.games),
    players: (gameId: string, q: string, signal?: AbortSignal) =>
      get<{ players: PlayerSummary[] }>(`/api/offers/games/${seg(gameId)}/players`, signal, { q, limit: "25" }).then((a) => a.players),
    player: (gameId: string, playerId: string, signal?: AbortSignal) => get<AdminPlayerState>(player(gameId, playerId), signal),
    /** Grants a compensation (or asks for approval); `key` is the dialog's Idempotency-Key, so a repeated submit answers the first grant. */
    grant: (gameId: string, playerId: string, body: CompensationBody, key: string) =>
      apiFetch<{ grant: SupportGrant }>(apiUrl(`${player(gameId, playerId)}/support-grants`, environment), { method: "POST", json: body, headers: { "Idempotency-Key": key } }).then((a) => a.grant),
    supportGrants: (gameId: string, query: { status?: SupportGrantStatus; playerId?: string }, signal?: AbortSignal) =>
      get<SupportGrantList>(`/api/offers/games/${seg(gameId)}/support-grants`, signal, Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Record<string, string>),
    decide: (gameId: string, grantId: string, decision: "approve" | "reject", reason: string | undefined) =>
      apiFetch<{ grant: SupportGrant }>(apiUrl(`/api/offers/games/${seg(gameId)}/support-grants/${seg(grantId)}/${decision}`, environment), {
        method: "POST",
        json: reason ? { reason } : {},
      }).then((a) => a.grant),
    /** Expires, revokes, extends or makes claimable one of the player's offers; `changed: false` for a repeat. */
    actOnOffer: (gameId: string, playerId: string, instanceId: string, action: SupportOfferAction, body: OfferActionBody | ExtendOfferBody) =>
      apiFetch<SupportOfferActionResponse>(apiUrl(`${player(gameId, playerId)}/offers/${seg(instanceId)}/${action}`, environment), { method: "POST", json: body }),
    /** Re-offer: assigns one of the game's definitions to the player. */
    reoffer: (gameId: string, playerId: string, body: ReofferBody) =>
      apiFetch<{ offer: Offer }>(apiUrl(`${player(gameId, playerId)}/offers`, environment), { method: "POST", json: body }).then((a) => a.offer),
    /** The player's webhook deliveries, newest first. */
    deliveries: (gameId: string, playerId: string, signal?: AbortSignal) => get<WebhookDeliveryPage>(`${player(gameId, playerId)}/deliveries`, signal),
    /** One page of the player's timeline, newest first, of the kinds asked; `before` is the `next` of the page before. */
    timeline: (gameId: string, playerId: string, query: TimelineQuery, signal?: AbortSignal) =>
      get<TimelinePage>(`${player(gameId, playerId)}/timeline`, signal, { kinds: query.kinds.join(","), limit: String(query.limit), ...(query.before ? { before: query.before } : {}) }),
    /** Sends the player's deliveries again: all, or one. */
    resend: (gameId: string, playerId: string, body: ResendDeliveriesBody) =>
      apiFetch<SupportResendResponse>(apiUrl(`${player(gameId, playerId)}/deliveries/replay`, environment), { method: "POST", json: body }),
    /** What a bulk compensation would grant (the form: kind, rewardId, amount, reason, and players or audience). */
    previewBulk: (gameId: string, form: FormData) =>
      apiFetch<{ preview: BulkPreview }>(apiUrl(`/api/offers/games/${seg(gameId)}/bulk-compensations/preview`, environment), { method: "POST", form }).then((a) => a.preview),
    /** Asks for a bulk compensation; `key` is the form's Idempotency-Key, so a repeated submit answers the first job. */
    askBulk: (gameId: string, form: FormData, key: string) =>
      apiFetch<{ job: BulkCompensation }>(apiUrl(`/api/offers/games/${seg(gameId)}/bulk-compensations`, environment), { method: "POST", form, headers: { "Idempotency-Key": key } }).then((a) => a.job),
    bulkJobs: (gameId: string, query: { status?: BulkJobStatus }, signal?: AbortSignal) =>
      get<BulkCompensationList>(`/api/offers/games/${seg(gameId)}/bulk-compensations`, signal, query.status ? { status: query.status } : {}),
    actOnBulk: (gameId: string, jobId: string, action: "approve" | "reject" | "cancel", reason: string) =>
      apiFetch<{ job: BulkCompensation }>(apiUrl(`/api/offers/games/${seg(gameId)}/bulk-compensations/${seg(jobId)}/${action}`, environment), {
        method: "POST",
        json: reason ? { reason } : {},
      }).then((a) => a.job),
    /** The result CSV's download address (same origin). */
    /** The game environment's four-eyes thresholds. */
    thresholds: (gameId: string, signal?: AbortSignal) => get<SupportThresholds>(`/api/offers/games/${seg(gameId)}/support-thresholds`, signal),
    /** Sets them (leads). */
    setThresholds: (gameId: string, thresholds: SupportThresholds) =>
      apiFetch<SupportThresholds>(apiUrl(`/api/offers/games/${seg(gameId)}/support-thresholds`, environment), { method: "PUT", json: thresholds }),
    bulkResultUrl: (gameId: string, jobId: string) => apiUrl(`/api/offers/games/${seg(gameId)}/bulk-compensations/${seg(jobId)}/result`, environment),
    /** The live view's EventSource address (same origin, so the browser's native EventSource works). */
    watchUrl: (gameId: string, playerId: string) => apiUrl(`${player(gameId, playerId)}/watch`, environment),
  };
}

/** The support pages' query keys: the environment is part of each, so live and test answers never share a cache entry. */
export function offersKeys(environment: Environment) {
  return {
    games: ["offers", environment, "games"] as const,
    players: (gameId: string, q: string) => ["offers", environment, "players", gameId, q] as const,
    player: (gameId: string, playerId: string) => ["offers", environment, "player", gameId, playerId] as const,
    deliveries: (gameId: string, playerId: string) => ["offers", environment, "deliveries", gameId, playerId] as const,
    /** Every page and choice of kinds of the player's timeline (a prefix: invalidating it refreshes them all). */
    timeline: (gameId: string, playerId: string) => ["offers", environment, "timeline", gameId, playerId] as const,
    thresholds: (gameId: string) => ["offers", environment, "support-thresholds", gameId] as const,
    pendingGrants: (gameId: string) => ["offers", environment, "support-grants", gameId, "pending"] as const,
    bulkJobs: (gameId: string, status: string) => ["offers", environment, "bulk-compensations", gameId, status] as const,
  };
}

/** The calls and query keys of the page's environment (OffersEnvironmentProvider). */
export function useOffersApi() {
  const { environment } = useOffersEnvironment();
  return useMemo(() => ({ api: offersApi(environment), keys: offersKeys(environment) }), [environment]);
}

/** Sentences of the support dashboard for the proxy's codes. */
const OFFERS_CODES: Record<string, string> = {
  unauthenticated: "Your session has ended. Sign in again.",
  forbidden: "You need the support role to inspect offers.",
  "player-not-found": "No such player in this game.",
  "offers-admin-token-rejected": "The offers service refused the portal's admin token. Ask an administrator to check OFFERS_ADMIN_TOKEN.",
  "offers-bad-response": "The offers service answered something unexpected.",
  "four-eyes-same-person": "You asked for this grant: someone else approves or rejects it.",
  "support-grant-decided": "Someone already decided this grant. The list is up to date now.",
  "support-grant-expired": "This grant waited too long for a decision and expired. Ask again if it is still due.",
  "bulk-no-players": "None of these ids is a player of this game environment: nothing to grant.",
  "bulk-too-many-players": "One compensation takes at most 1,000,000 player ids and 32 MB. Split the list.",
  "bulk-job-decided": "Someone already decided this compensation. The list is up to date now.",
  "bulk-job-expired": "This compensation waited too long for approval and expired. Ask again if it is still due.",
  "bulk-job-finished": "This compensation has already ended.",
  "bulk-result-deleted": "This compensation's per-player result was deleted after the retention period. Its counts remain on the job.",
  "payload-too-large": "One compensation takes at most 1,000,000 player ids and 32 MB. Split the list.",
  "unknown-reward": "The game knows no such reward. Use one of its currency ids, or a reward id of one of its offers.",
  "offer-not-found": "No such offer: check the offer id (a re-offer names one of the game's offer definitions), or reload the player.",
  "offer-already-assigned": "The player already has this offer open. Expire or revoke it first if it must start again.",
  "offer-transition-refused": "The offer's status no longer allows this (it moved on meanwhile). The player's offers are up to date now.",
  "expiry-out-of-range": "The new expiry must be later than the offer's current one, and at most 30 days from now.",
  "webhook-delivery-not-found": "No such delivery of this player. The list is up to date now.",
};

/** A sentence for the UI of a failed call; the queries retry while the offers service is away, so it says so. */
export function describeOffersError(error: unknown): string {
  if (error instanceof ApiError && error.retryable) return "The offers service is unavailable right now. Retrying…";
  return describeApiError(error, { codes: OFFERS_CODES });
}

export function isPlayerNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.code === "player-not-found";
}
