// From a decoded session token to the PortalUser: roles are resolved from portal.yaml on every use.
import "server-only";
import { createHash } from "node:crypto";
import type { JWT } from "next-auth/jwt";
import { decode } from "next-auth/jwt";
import { resolveRoles, type PortalConfig } from "../portal-yaml";
import type { PortalUser } from "../roles";
import { TtlCache } from "../ttl-cache";
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

/**
 * Session tokens decoded lately, by a digest of the secret and the cookie. Decoding is a key
 * derivation and a decryption, a third of the CPU of a catalog search; its answer for a given cookie
 * never changes, except that the token expires, which every hit checks. Nothing to invalidate: a
 * session token cannot be revoked on the server (signing out deletes the cookie).
 */
const decodedTokens = new TtlCache<string, JWT>({ ttlMs: 60_000, maxEntries: 1_000 });

/** Decodes a session token; null when it is missing, expired, or not ours. */
export async function decodeSessionToken(value: string | undefined, secret: string, now: () => number = Date.now): Promise<JWT | null> {
  if (!value) return null;
  const key = createHash("sha256").update(secret).update("\0").update(value).digest("base64url");
  const known = decodedTokens.get(key);
  if (known) return typeof known.exp === "number" && known.exp * 1000 <= now() ? null : structuredClone(known);
  try {
    const epoch = decodedTokens.epoch;
    const token = await decode({ token: value, secret });
    if (token) decodedTokens.set(key, structuredClone(token), epoch);
    return token;
  } catch {
    return null;
  }
}
