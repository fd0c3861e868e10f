// The player's session on the rewards page: the game JWT that redeeming a one-time token answered,
// kept in an httpOnly cookie scoped to /rewards. The browser never sees a key; the offers service
// verifies the JWT on every call (it is only decoded here, to know its player and expiry).
import "server-only";
import { cookies } from "next/headers";
import { decodeJwt } from "jose";
import { getPortalEnv } from "@/lib/env/portal";

export const REWARDS_COOKIE = "rewards_session";
export const REWARDS_PATH = "/rewards";
/** The JWT lives 15 minutes; the cookie a little longer, so an expired session can be told apart from none. */
export const REWARDS_COOKIE_MAX_AGE_S = 60 * 60;

/**
 * A token whose redeem was refused for load (429) or failed (the service away): it was not spent, so
 * it is kept, httpOnly, for the page's "try again" (GET /rewards/redeem without a token), as long as
 * a one-time token lives at most.
 */
export const PENDING_REDEEM_COOKIE = "rewards_pending_token";
export const PENDING_REDEEM_MAX_AGE_S = 5 * 60;

/** The token and game kept in the pending cookie's value, or null. */
export function pendingRedeemOf(value: string | undefined): { token?: unknown; gameId?: unknown } | null {
  if (!value) return null;
  try {
    const kept: unknown = JSON.parse(value);
    return kept && typeof kept === "object" ? (kept as { token?: unknown; gameId?: unknown }) : null;
  } catch {
    return null;
  }
}

export interface RewardsSession {
  token: string;
  gameId: string;
  playerId: string;
  expiresAt: number;
  expired: boolean;
}

/** The offers API base as the portal's server reaches it (OFFERS_BASE_URL + /v1). */
export function offersApiBase(): string {
  return getPortalEnv().OFFERS_BASE_URL.replace(/\/+$/, "") + "/v1";
}

export function sessionFromToken(token: string | undefined, now = Date.now()): RewardsSession | null {
  if (!token) return null;
  try {
    const claims = decodeJwt(token);
    if (typeof claims.iss !== "string" || typeof claims.sub !== "string" || typeof claims.exp !== "number") return null;
    const expiresAt = claims.exp * 1000;
    return { token, gameId: claims.iss, playerId: claims.sub, expiresAt, expired: expiresAt <= now };
  } catch {
    return null;
  }
}

/** Whether a refused redeem left a token for "try again". */
export async function hasPendingRedeem(): Promise<boolean> {
  return (await cookies()).has(PENDING_REDEEM_COOKIE);
}

export async function readRewardsSession(): Promise<RewardsSession | null> {
  const store = await cookies();
  return sessionFromToken(store.get(REWARDS_COOKIE)?.value);
}

/** Whether the request reached us over TLS (the proxy's HSTS follows the same rule). */
export { isSecureRequest } from "@/lib/portal/http/secure-request";
