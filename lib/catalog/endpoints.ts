/**
 * Every portal endpoint of spec/interface.md ("Portal endpoints"), for the root index GET /api.
 * Where the interface says "unlisted", the method is the one this portal answers (GET for reads).
 */
export interface EndpointDescription {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  description: string;
}

export const PORTAL_ENDPOINTS: Record<string, EndpointDescription> = {
  health: { method: "GET", path: "/health", description: "Liveness and readiness" },
  authLogin: { method: "GET", path: "/auth/:provider/login", description: "Starts login through an external source-control identity provider" },
  authCallback: { method: "GET", path: "/auth/:provider/callback", description: "Login callback" },
  authSession: { method: "GET", path: "/api/auth/session", description: "Current session" },
  authLogout: { method: "POST", path: "/api/auth/logout", description: "Sign out" },
  index: { method: "GET", path: "/api", description: "This index: service, configDir, endpoints, components, errors" },
  components: { method: "GET", path: "/api/components", description: "List of components: q, kind, owner, group, environment, dependency, favorites, sort, order, page, pageSize" },
  component: { method: "GET", path: "/api/components/:name", description: "One component, with its YAML and ETag" },
  componentReplace: { method: "PUT", path: "/api/components/:name", description: "Update a component: replace the record (If-Match required)" },
  componentPatch: { method: "PATCH", path: "/api/components/:name", description: "Update a component: JSON merge patch (If-Match required)" },
  favorites: { method: "GET", path: "/api/components/favorites", description: "The signed-in user's favorite components" },
  favoriteAdd: { method: "POST", path: "/api/components/:name/favorite", description: "Mark favorite" },
  favoriteRemove: { method: "DELETE", path: "/api/components/:name/favorite", description: "Remove favorite" },
  componentStatus: { method: "GET", path: "/api/components/:name/status", description: "Per environment: namespace and deployed version; open merge requests" },
  componentOpenMergeRequests: { method: "GET", path: "/api/components/:name/open-merge-requests", description: "Open merge requests of the component" },
  componentConfig: { method: "GET", path: "/api/components/:name/config", description: "Configuration; query view: current or persistent" },
  componentConfigUpdate: { method: "POST", path: "/api/components/:name/config", description: "Body: environment, values, view (optional)" },
  componentConfigBulk: { method: "POST", path: "/api/components/:name/config/bulk", description: "Body: updates (environment, values), view (optional)" },
  componentReleases: { method: "GET", path: "/api/components/:name/releases", description: "Releases; query environment: staging or production" },
  componentReleaseCreate: { method: "POST", path: "/api/components/:name/releases", description: "Body: environment, sourceRef (optional), releaseType (optional)" },
  importRepositories: { method: "GET", path: "/api/import/repositories", description: "Repositories that can be imported" },
  importOwners: { method: "GET", path: "/api/import/owners", description: "Owners that can be assigned" },
  importComponents: { method: "POST", path: "/api/import/components", description: "Import components" },
  cacheRefresh: { method: "POST", path: "/api/cache/refresh", description: "Re-read the config repository (operator); ?name= refreshes one record" },
  options: { method: "GET", path: "/api/options", description: "Values the forms need" },
  resourceRequests: { method: "GET", path: "/api/resource-requests", description: "Resource requests" },
  appOrderRequests: { method: "GET", path: "/api/app-order-requests", description: "App-order requests" },
  appOrderRequestCreate: { method: "POST", path: "/api/app-order-requests", description: "Order an app" },
  appOrderOpenMergeRequests: { method: "GET", path: "/api/app-order-requests/open-merge-requests", description: "Open merge requests of app orders" },
  appOrderPendingCount: { method: "GET", path: "/api/app-order-requests/pending/count", description: "Number of pending app orders" },
  appOrderApprove: { method: "POST", path: "/api/app-order-requests/:id/approve", description: "Approve an app order (lead)" },
  appOrderReject: { method: "POST", path: "/api/app-order-requests/:id/reject", description: "Reject an app order (lead)" },
  // Ours, beyond the interface's list.
  mergeRequests: { method: "GET", path: "/api/merge-requests", description: "Merge requests of the config repository: component, state, author, mine-to-review" },
  mergeRequest: { method: "GET", path: "/api/merge-requests/:id", description: "One merge request with its diff, conflicts, approvals and what the caller may do" },
  mergeRequestApprove: { method: "POST", path: "/api/merge-requests/:id/approve", description: "Approve (the component's owners and operators)" },
  mergeRequestMerge: { method: "POST", path: "/api/merge-requests/:id/merge", description: "Merge (the component's owners and operators)" },
  mergeRequestClose: { method: "POST", path: "/api/merge-requests/:id/close", description: "Close with a reason (owners, operators, the author)" },
  audit: { method: "GET", path: "/api/audit", description: "Audit log with filters (admin)" },
  tokens: { method: "GET", path: "/api/tokens", description: "The signed-in user's personal API tokens" },
  tokenCreate: { method: "POST", path: "/api/tokens", description: "Create a personal API token (shown once)" },
  tokenRevoke: { method: "DELETE", path: "/api/tokens/:id", description: "Revoke a personal API token" },
  offersGames: { method: "GET", path: "/api/offers/games", description: "Games of the offers service (support)" },
  offersPlayers: { method: "GET", path: "/api/offers/games/:gameId/players", description: "Find players by id or username (support)" },
  offersPlayer: { method: "GET", path: "/api/offers/games/:gameId/players/:playerId", description: "A player's offers, history, snapshot and ledger (support)" },
  offersPlayerWatch: { method: "GET", path: "/api/offers/games/:gameId/players/:playerId/watch", description: "Live event stream of a player (support; text/event-stream)" },
};
