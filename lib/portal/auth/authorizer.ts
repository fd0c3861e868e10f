// The logic behind authorize() in lib/portal/authorize.ts, with its dependencies passed in (tests use a real database).
import type { PortalConfig } from "../portal-yaml";
import { resolveRoles } from "../portal-yaml";
import { normalizeRoles, type PortalUser, type Role } from "../roles";
import { PortalError, requireRole } from "../errors";
import type { VerifiedToken } from "../tokens";
import { decodeSessionToken, parseCookieHeader, sessionCookieValue, userFromToken } from "./session-user";

/** Who calls, and how; a refusal is thrown as a PortalError (unauthenticated, cross-site-request, forbidden). */
export type AuthorizeResult = { ok: true; user: PortalUser; via: "session" | "token" };

export interface AuthorizerDeps {
  secret: string;
  sessionCookieName: string;
  devLogin: boolean;
  /** The portal's public origin (NEXTAUTH_URL), accepted as a same-site Origin besides the request's own. */
  publicOrigin?: string;
  config: () => PortalConfig;
  verifyToken: (token: string) => Promise<VerifiedToken | null>;
}

const mutatingMethods = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const unauthenticated = () => new PortalError("unauthenticated", "sign in, or send a personal API token (Authorization: Bearer …)");
export const crossSite = () =>
  new PortalError("cross-site-request", "the request came from a page of another site, or without the Origin a browser sends: scripts use a personal API token (Authorization: Bearer …)");

/** The origins a same-site request may carry: the request URL's, the Host (and X-Forwarded-*) one, and NEXTAUTH_URL's. */
function ownOrigins(request: Request, publicOrigin?: string): Set<string> {
  const origins = new Set<string>();
  if (publicOrigin) origins.add(publicOrigin);
  try {
    origins.add(new URL(request.url).origin);
  } catch {
    // a relative URL has no origin of its own
  }
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host");
  if (host) {
    const forwardedProto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
    const protos = forwardedProto ? [forwardedProto] : ["http", "https"];
    for (const proto of protos) origins.add(`${proto}://${host}`);
  }
  return origins;
}

/**
 * Same-site check of a cookie-authenticated mutating request. Sec-Fetch-Site, when the browser sends it,
 * decides (same-origin or none pass); otherwise the Origin header must be one of ours. A request with
 * neither header is refused: every browser sends Origin on a POST/PUT/PATCH/DELETE, so only a
 * non-browser caller lacks both, and those write with a personal API token.
 */
export function isSameSiteRequest(request: Request, publicOrigin?: string): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite) return fetchSite === "same-origin" || fetchSite === "none";
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  return ownOrigins(request, publicOrigin).has(origin);
}

/** The Bearer token; null for a malformed Bearer header; undefined without one (other schemes, e.g. a proxy's Basic, are ignored). */
function bearerToken(request: Request): string | null | undefined {
  const header = request.headers.get("authorization")?.trim();
  if (!header || !/^Bearer(\s|$)/i.test(header)) return undefined;
  const match = /^Bearer\s+(\S{1,512})$/i.exec(header);
  return match ? match[1] : null;
}

export function createAuthorizer(deps: AuthorizerDeps) {
  return async function authorize(request: Request, role?: Role): Promise<AuthorizeResult> {
    let user: PortalUser | null = null;
    let via: "session" | "token" = "session";
    const bearer = bearerToken(request);
    if (bearer !== undefined) {
      // An Authorization header decides alone: a bad one is not rescued by a cookie.
      if (!bearer) throw unauthenticated();
      const verified = await deps.verifyToken(bearer);
      if (!verified) throw unauthenticated();
      const { owner } = verified;
      const roles = normalizeRoles([...resolveRoles(deps.config(), owner.id, owner.groups), ...verified.grantedRoles]);
      user = { id: owner.id, name: owner.name, ...(owner.email ? { email: owner.email } : {}), roles, groups: owner.groups };
      via = "token";
    } else {
      const cookies = parseCookieHeader(request.headers.get("cookie"));
      const value = sessionCookieValue(deps.sessionCookieName, () => cookies);
      const token = await decodeSessionToken(value, deps.secret);
      user = userFromToken(token, deps.config(), deps.devLogin);
      if (!user) throw unauthenticated();
      if (mutatingMethods.has(request.method.toUpperCase()) && !isSameSiteRequest(request, deps.publicOrigin)) throw crossSite();
    }
    if (role) requireRole(user, role);
    return { ok: true, user, via };
  };
}
