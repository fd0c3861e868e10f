// Browser-side calls of the portal's webhook routes (live ops), on the portal's one fetch client.
// Types only come from the offers API contract: nothing of the admin client reaches the browser.
import { useMemo } from "react";
import type { z } from "zod";
import type {
  AdminWebhooks,
  DeliveryStatus,
  Environment,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookReplayed,
  WebhookSecretRotated,
  WebhookTestSent,
} from "@/lib/offers-client/schemas";
import { apiFetch, ApiError, describeApiError } from "@/components/http/api-client";
import { apiUrl } from "@/components/offers-environment/environment";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";

export type Overview = z.infer<typeof AdminWebhooks>;
export type Endpoint = z.infer<typeof WebhookEndpoint>;
export type CreatedEndpoint = z.infer<typeof WebhookEndpointCreated>;
export type RotatedSecret = z.infer<typeof WebhookSecretRotated>;
export type Delivery = z.infer<typeof WebhookDelivery>;
export type DeliveryPage = z.infer<typeof WebhookDeliveryPage>;
export type Status = z.infer<typeof DeliveryStatus>;

const seg = encodeURIComponent;
const base = (gameId: string) => `/api/offers/games/${seg(gameId)}/webhooks`;

/** The webhook pages' calls, each about `environment` (the portal's offers routes take environment=live|test). */
export function webhooksApi(environment: Environment) {
  const url = (path: string, params?: URLSearchParams) => apiUrl(path, environment, params);
  return {
    overview: (gameId: string, signal?: AbortSignal) => apiFetch<Overview>(url(base(gameId)), { signal, cache: "no-store" }),
    deliveries: (gameId: string, options: { status?: Status; before?: number }, signal?: AbortSignal) => {
      const params = new URLSearchParams({ limit: "25" });
      if (options.status) params.set("status", options.status);
      if (options.before) params.set("before", String(options.before));
      return apiFetch<DeliveryPage>(url(`${base(gameId)}/deliveries`, params), { signal, cache: "no-store" });
    },
    create: (gameId: string, input: { url: string; description: string }) =>
      apiFetch<CreatedEndpoint>(url(`${base(gameId)}/endpoints`), { method: "POST", json: { ...input, eventTypes: ["reward.granted"] } }),
    // Changes name the endpoint as listed (its etag as If-Match): someone else's change since is 412 precondition-failed.
    setEnabled: (gameId: string, endpoint: Endpoint, enabled: boolean) =>
      apiFetch<Endpoint>(url(`${base(gameId)}/endpoints/${seg(endpoint.endpointId)}`), { method: "PATCH", json: { enabled }, headers: { "If-Match": endpoint.etag } }),
    remove: (gameId: string, endpoint: Endpoint) =>
      apiFetch<{ endpointId: string; deleted: true }>(url(`${base(gameId)}/endpoints/${seg(endpoint.endpointId)}`), { method: "DELETE", headers: { "If-Match": endpoint.etag } }),
    rotate: (gameId: string, endpoint: Endpoint) =>
      apiFetch<RotatedSecret>(url(`${base(gameId)}/endpoints/${seg(endpoint.endpointId)}/rotate-secret`), { method: "POST", headers: { "If-Match": endpoint.etag } }),
    test: (gameId: string, endpointId: string) => apiFetch<z.infer<typeof WebhookTestSent>>(url(`${base(gameId)}/endpoints/${seg(endpointId)}/test`), { method: "POST" }),
    replay: (gameId: string, deliveryId: number) => apiFetch<z.infer<typeof WebhookReplayed>>(url(`${base(gameId)}/deliveries/${deliveryId}/replay`), { method: "POST" }),
    replayFailed: (gameId: string, range: { from: string; to: string; endpointId?: string }) =>
      apiFetch<z.infer<typeof WebhookReplayed>>(url(`${base(gameId)}/replay`), { method: "POST", json: range }),
  };
}

/** The webhook pages' query keys: the environment is part of each, so live and test answers never share a cache entry. */
export function webhookKeys(environment: Environment) {
  const all = (gameId: string) => ["webhooks", environment, gameId] as const;
  return {
    all,
    overview: (gameId: string) => [...all(gameId), "overview"] as const,
    deliveries: (gameId: string, status: Status | "") => [...all(gameId), "deliveries", status] as const,
  };
}

/** The webhook pages' calls and query keys in the page's environment (OffersEnvironmentProvider). */
export function useWebhooksApi() {
  const { environment } = useOffersEnvironment();
  return useMemo(() => ({ api: webhooksApi(environment), keys: webhookKeys(environment) }), [environment]);
}

/** Sentences of the webhook pages for the portal's codes. */
const CODES: Record<string, string> = {
  forbidden: "You need the live ops role to manage webhooks.",
  "game-not-found": "The offers service has no such game.",
  "webhook-url-not-allowed": "This URL reaches a loopback or private address, which the offers service refuses.",
  "webhook-endpoint-not-found": "This endpoint no longer exists: someone else may have deleted it.",
};

/** Someone else changed the endpoint since the list was loaded (412: its If-Match is stale). */
export function isStale(error: unknown): boolean {
  return error instanceof ApiError && error.code === "precondition-failed";
}

export function describeWebhookError(error: unknown): string {
  if (error instanceof ApiError && error.retryable) return "The offers service is unavailable right now. Retrying…";
  // The list is read again after every change, so it already shows theirs.
  if (isStale(error)) return "Someone changed this endpoint since you opened the page; the list now shows their change. Try again if you still want to.";
  return describeApiError(error, { codes: CODES });
}

export function isGameNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.code === "game-not-found";
}
