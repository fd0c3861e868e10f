// From a decoded session token to the PortalUser: roles are resolved from portal.yaml on every use.
import type { JWT } from "next-auth/jwt";
import { decode } from "next-auth/jwt";
import { resolveRoles, type PortalConfig } from "../portal-yaml";
import type { PortalUser } from "../roles";
import { devProviderId } from "./settings";

/** What the portal keeps in its session token (besides next-auth's name, email, sub). */
export interface PortalTokenClaims {
  /** The user name roles are configured by (GitLab username; development sign-in name). */
  username?: string;
  groups?: string[];
  provider?: string;
}

export function userFromToken(token: JWT | null, config: PortalConfig, devLogin: boolean): PortalUser | null {
  if (!token) return null;
  const claims = token as JWT & PortalTokenClaims;
  const id = typeof claims.username === "string" && claims.username ? claims.username : undefined;
  if (!id) return null;
  // A development session stops working as soon as the development sign-in is turned off.
  if (claims.provider === devProviderId && !devLogin) return null;
  const groups = Array.isArray(claims.groups) ? claims.groups.filter((g): g is string => typeof g === "string") : [];
  return {
    id,
    name: typeof claims.name === "string" && claims.name ? claims.name : id,
    ...(typeof claims.email === "string" && claims.email ? { email: claims.email } : {}),
    roles: resolveRoles(config, id, groups),
    groups,
  };
}

/** Reads next-auth's session cookie (possibly split in chunks name.0, name.1, …) from a cookie lookup. */
export function sessionCookieValue(cookieName: string, getAll: () => { name: string; value: string }[]): string | undefined {
  const all = getAll();
  const whole = all.find((c) => c.name === cookieName);
  if (whole) return whole.value;
  const chunks = all
    .filter((c) => c.name.startsWith(`${cookieName}.`) && /^\d+$/.test(c.name.slice(cookieName.length + 1)))
    .sort((a, b) => Number(a.name.slice(cookieName.length + 1)) - Number(b.name.slice(cookieName.length + 1)));
  return chunks.length ? chunks.map((c) => c.value).join("") : undefined;
}

/** Parses a Cookie header. */
export function parseCookieHeader(header: string | null): { name: string; value: string }[] {
  if (!header) return [];
  const out: { name: string; value: string }[] = [];
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // keep the raw value
    }
    out.push({ name, value });
  }
  return out;
}

/** Decodes a session token; null when it is missing, expired, or not ours. */
export async function decodeSessionToken(value: string | undefined, secret: string): Promise<JWT | null> {
  if (!value) return null;
  try {
    return await decode({ token: value, secret });
  } catch {
    return null;
  }
}
