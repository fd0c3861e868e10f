// The one authorization helper of portal route handlers and server components.
//
//   const { user } = await authorize(request, "operator");
//   // refused: throws PortalError unauthenticated | forbidden (naming requiredRole) | cross-site-request
//
// Accepts the next-auth session cookie (mutating methods must come from our own origin) or a personal
// API token in `Authorization: Bearer <token>` (no Origin check). Roles come from config/portal.yaml.
import "server-only";
import { cookies } from "next/headers";
import { hasRole, type PortalUser, type Role } from "./roles";
import { getAuthSettings, getPortalConfig } from "./auth/settings";
import { decodeSessionToken, sessionCookieValue, userFromToken } from "./auth/session-user";
import { getPortalServices } from "./services";

export type { Role, PortalUser };
export { hasRole };

/**
 * Authenticates a route handler's request and checks the role (admin implies every role).
 * Without a role, any signed-in user (every signed-in user holds `engineer`).
 */
export async function authorize(
  request: Request,
  role?: Role,
): Promise<{ ok: true; user: PortalUser; via: "session" | "token" }> {
  // The authorizer of this process's services (lib/portal/services.ts): its settings and token check.
  return getPortalServices().authorize(request, role);
}

/** The signed-in user of the current request, for server components and server actions; null when signed out. */
export async function currentUser(): Promise<PortalUser | null> {
  const settings = getAuthSettings();
  const store = await cookies();
  const value = sessionCookieValue(settings.sessionCookieName, () => store.getAll());
  const token = await decodeSessionToken(value, settings.secret);
  return userFromToken(token, getPortalConfig(), settings.devLogin);
}
