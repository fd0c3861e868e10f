// Every portal API route module, for its OpenAPI document (lib/portal/http/openapi.ts). The test beside this file
// checks the table against the route files: only the two catch-alls stay out (unknown /api paths answer a JSON 404;
// /api/auth/* are next-auth's own browser endpoints).
import { buildPortalOpenApiDocument, type PortalRouteModule } from "@/lib/portal/http/openapi";

export const EXCLUDED_ROUTE_FILES = ["app/api/[...path]/route.ts", "app/api/auth/[...nextauth]/route.ts"];

let document: ReturnType<typeof buildPortalOpenApiDocument> | undefined;

/** The route modules, loaded on first use (this document's own route is added by the caller). */
export async function portalRouteModules(): Promise<PortalRouteModule[]> {
  return [
    { path: "/api/app-order-requests/{id}/approve", module: await import("@/app/api/app-order-requests/[id]/approve/route") },
    { path: "/api/app-order-requests/{id}/reject", module: await import("@/app/api/app-order-requests/[id]/reject/route") },
    { path: "/api/app-order-requests/open-merge-requests", module: await import("@/app/api/app-order-requests/open-merge-requests/route") },
    { path: "/api/app-order-requests/pending/count", module: await import("@/app/api/app-order-requests/pending/count/route") },
    { path: "/api/app-order-requests", module: await import("@/app/api/app-order-requests/route") },
    { path: "/api/audit", module: await import("@/app/api/audit/route") },
    { path: "/api/auth/logout", module: await import("@/app/api/auth/logout/route") },
    { path: "/api/cache/refresh", module: await import("@/app/api/cache/refresh/route") },
    { path: "/api/components/{name}/config/bulk", module: await import("@/app/api/components/[name]/config/bulk/route") },
    { path: "/api/components/{name}/config", module: await import("@/app/api/components/[name]/config/route") },
    { path: "/api/components/{name}/apis/{api}", module: await import("@/app/api/components/[name]/apis/[api]/route") },
    { path: "/api/components/{name}/graph", module: await import("@/app/api/components/[name]/graph/route") },
    { path: "/api/components/{name}/favorite", module: await import("@/app/api/components/[name]/favorite/route") },
    { path: "/api/components/{name}/open-merge-requests", module: await import("@/app/api/components/[name]/open-merge-requests/route") },
    { path: "/api/components/{name}/releases", module: await import("@/app/api/components/[name]/releases/route") },
    { path: "/api/components/{name}", module: await import("@/app/api/components/[name]/route") },
    { path: "/api/components/{name}/status", module: await import("@/app/api/components/[name]/status/route") },
    { path: "/api/components/favorites", module: await import("@/app/api/components/favorites/route") },
    { path: "/api/components", module: await import("@/app/api/components/route") },
    { path: "/api/import/components", module: await import("@/app/api/import/components/route") },
    { path: "/api/import/owners", module: await import("@/app/api/import/owners/route") },
    { path: "/api/import/repositories", module: await import("@/app/api/import/repositories/route") },
    { path: "/api/merge-requests/{id}/approve", module: await import("@/app/api/merge-requests/[id]/approve/route") },
    { path: "/api/merge-requests/{id}/close", module: await import("@/app/api/merge-requests/[id]/close/route") },
    { path: "/api/merge-requests/{id}/merge", module: await import("@/app/api/merge-requests/[id]/merge/route") },
    { path: "/api/merge-requests/{id}", module: await import("@/app/api/merge-requests/[id]/route") },
    { path: "/api/merge-requests", module: await import("@/app/api/merge-requests/route") },
    { path: "/api/offers/games/{gameId}/audience/count", module: await import("@/app/api/offers/games/[gameId]/audience/count/route") },
    { path: "/api/offers/games/{gameId}/definitions/{offerId}/activate", module: await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/activate/route") },
    { path: "/api/offers/games/{gameId}/definitions/{offerId}/archive", module: await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/archive/route") },
    { path: "/api/offers/games/{gameId}/definitions/{offerId}/funnel", module: await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/funnel/route") },
    { path: "/api/offers/games/{gameId}/definitions/{offerId}/jobs", module: await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/jobs/route") },
    { path: "/api/offers/games/{gameId}/definitions/{offerId}/pause", module: await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/pause/route") },
    { path: "/api/offers/games/{gameId}/definitions/{offerId}/preview", module: await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/preview/route") },
    { path: "/api/offers/games/{gameId}/definitions/{offerId}/restore", module: await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/restore/route") },
    { path: "/api/offers/games/{gameId}/definitions/{offerId}", module: await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/route") },
    { path: "/api/offers/games/{gameId}/definitions", module: await import("@/app/api/offers/games/[gameId]/definitions/route") },
    { path: "/api/offers/games/{gameId}/players/{playerId}", module: await import("@/app/api/offers/games/[gameId]/players/[playerId]/route") },
    { path: "/api/offers/games/{gameId}/players/{playerId}/timeline", module: await import("@/app/api/offers/games/[gameId]/players/[playerId]/timeline/route") },
    { path: "/api/offers/games/{gameId}/players/{playerId}/watch", module: await import("@/app/api/offers/games/[gameId]/players/[playerId]/watch/route") },
    { path: "/api/offers/games/{gameId}/players", module: await import("@/app/api/offers/games/[gameId]/players/route") },
    { path: "/api/offers/games/{gameId}/players/{playerId}/support-grants", module: await import("@/app/api/offers/games/[gameId]/players/[playerId]/support-grants/route") },
    { path: "/api/offers/games/{gameId}/players/{playerId}/offers", module: await import("@/app/api/offers/games/[gameId]/players/[playerId]/offers/route") },
    { path: "/api/offers/games/{gameId}/players/{playerId}/offers/{instanceId}/expire", module: await import("@/app/api/offers/games/[gameId]/players/[playerId]/offers/[instanceId]/expire/route") },
    { path: "/api/offers/games/{gameId}/players/{playerId}/offers/{instanceId}/revoke", module: await import("@/app/api/offers/games/[gameId]/players/[playerId]/offers/[instanceId]/revoke/route") },
    { path: "/api/offers/games/{gameId}/players/{playerId}/offers/{instanceId}/extend", module: await import("@/app/api/offers/games/[gameId]/players/[playerId]/offers/[instanceId]/extend/route") },
    { path: "/api/offers/games/{gameId}/players/{playerId}/offers/{instanceId}/make-claimable", module: await import("@/app/api/offers/games/[gameId]/players/[playerId]/offers/[instanceId]/make-claimable/route") },
    { path: "/api/offers/games/{gameId}/players/{playerId}/deliveries", module: await import("@/app/api/offers/games/[gameId]/players/[playerId]/deliveries/route") },
    { path: "/api/offers/games/{gameId}/players/{playerId}/deliveries/replay", module: await import("@/app/api/offers/games/[gameId]/players/[playerId]/deliveries/replay/route") },
    { path: "/api/offers/games/{gameId}/support-grants", module: await import("@/app/api/offers/games/[gameId]/support-grants/route") },
    { path: "/api/offers/games/{gameId}/support-grants/{grantId}/approve", module: await import("@/app/api/offers/games/[gameId]/support-grants/[grantId]/approve/route") },
    { path: "/api/offers/games/{gameId}/support-thresholds", module: await import("@/app/api/offers/games/[gameId]/support-thresholds/route") },
    { path: "/api/offers/games/{gameId}/support-grants/{grantId}/reject", module: await import("@/app/api/offers/games/[gameId]/support-grants/[grantId]/reject/route") },
    { path: "/api/offers/games/{gameId}/bulk-compensations", module: await import("@/app/api/offers/games/[gameId]/bulk-compensations/route") },
    { path: "/api/offers/games/{gameId}/bulk-compensations/preview", module: await import("@/app/api/offers/games/[gameId]/bulk-compensations/preview/route") },
    { path: "/api/offers/games/{gameId}/bulk-compensations/{jobId}", module: await import("@/app/api/offers/games/[gameId]/bulk-compensations/[jobId]/route") },
    { path: "/api/offers/games/{gameId}/bulk-compensations/{jobId}/approve", module: await import("@/app/api/offers/games/[gameId]/bulk-compensations/[jobId]/approve/route") },
    { path: "/api/offers/games/{gameId}/bulk-compensations/{jobId}/reject", module: await import("@/app/api/offers/games/[gameId]/bulk-compensations/[jobId]/reject/route") },
    { path: "/api/offers/games/{gameId}/bulk-compensations/{jobId}/cancel", module: await import("@/app/api/offers/games/[gameId]/bulk-compensations/[jobId]/cancel/route") },
    { path: "/api/offers/games/{gameId}/bulk-compensations/{jobId}/result", module: await import("@/app/api/offers/games/[gameId]/bulk-compensations/[jobId]/result/route") },
    { path: "/api/offers/games/{gameId}/webhooks/deliveries/{deliveryId}/replay", module: await import("@/app/api/offers/games/[gameId]/webhooks/deliveries/[deliveryId]/replay/route") },
    { path: "/api/offers/games/{gameId}/webhooks/deliveries", module: await import("@/app/api/offers/games/[gameId]/webhooks/deliveries/route") },
    { path: "/api/offers/games/{gameId}/webhooks/endpoints/{endpointId}/rotate-secret", module: await import("@/app/api/offers/games/[gameId]/webhooks/endpoints/[endpointId]/rotate-secret/route") },
    { path: "/api/offers/games/{gameId}/webhooks/endpoints/{endpointId}", module: await import("@/app/api/offers/games/[gameId]/webhooks/endpoints/[endpointId]/route") },
    { path: "/api/offers/games/{gameId}/webhooks/endpoints/{endpointId}/test", module: await import("@/app/api/offers/games/[gameId]/webhooks/endpoints/[endpointId]/test/route") },
    { path: "/api/offers/games/{gameId}/webhooks/endpoints", module: await import("@/app/api/offers/games/[gameId]/webhooks/endpoints/route") },
    { path: "/api/offers/games/{gameId}/webhooks/replay", module: await import("@/app/api/offers/games/[gameId]/webhooks/replay/route") },
    { path: "/api/offers/games/{gameId}/webhooks", module: await import("@/app/api/offers/games/[gameId]/webhooks/route") },
    { path: "/api/offers/games", module: await import("@/app/api/offers/games/route") },
    { path: "/api/owners/{owner}", module: await import("@/app/api/owners/[owner]/route") },
    { path: "/api/options", module: await import("@/app/api/options/route") },
    { path: "/api/scorecards", module: await import("@/app/api/scorecards/route") },
    { path: "/api/scorecards/rules", module: await import("@/app/api/scorecards/rules/route") },
    { path: "/api/resource-requests", module: await import("@/app/api/resource-requests/route") },
    { path: "/api", module: await import("@/app/api/route") },
    { path: "/api/tokens/{id}", module: await import("@/app/api/tokens/[id]/route") },
    { path: "/api/tokens", module: await import("@/app/api/tokens/route") },
  ];
}

/** The document, built once per process. */
export async function portalOpenApiDocument(self: PortalRouteModule) {
  document ??= buildPortalOpenApiDocument([...(await portalRouteModules()), self]);
  return document;
}
