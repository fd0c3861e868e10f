// GET /rewards/redeem?token=…&gameId=… — where /rewards?token=… sends the browser. Redeems the
// one-time token with the offers service (once, within 5 minutes), keeps the player's access JWT in
// an httpOnly cookie scoped to /rewards, and redirects to /rewards without the token in the URL.
// A failed redeem redirects to /rewards?error=used|expired|invalid|unavailable.
// The service limits redeems per player address: the portal sends the player's address with its
// admin token, so one address's traffic never spends another player's budget. Over the limit the
// token was not looked at: it stays in a short-lived cookie, and "try again" redeems it from there.
import { NextRequest, NextResponse } from "next/server";
import { getPortalEnv } from "@/lib/env/portal";
import { OffersApiError, redeemOneTimeToken, type RedeemRelay } from "@/lib/offers-client";
import { OneTimeTokenRedeemRequest } from "@/lib/offers-client/schemas";
import { clientAddressOf } from "@/lib/portal/http/client-address";
import { offersAdminSettings } from "@/lib/portal/offers-admin";
import {
  isSecureRequest,
  offersApiBase,
  PENDING_REDEEM_COOKIE,
  PENDING_REDEEM_MAX_AGE_S,
  pendingRedeemOf,
  REWARDS_COOKIE,
  REWARDS_COOKIE_MAX_AGE_S,
  REWARDS_PATH,
} from "../session";

export const dynamic = "force-dynamic";

type Problem = "used" | "expired" | "invalid" | "unavailable";

function redirect(location: string): NextResponse {
  // A relative Location: right behind any proxy, whatever host the request came through.
  return new NextResponse(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

function problemOf(error: unknown): Problem {
  if (error instanceof OffersApiError) {
    if (error.code === "token-used") return "used";
    if (error.code === "token-expired") return "expired";
    // Too many redeems from this address: refused before the token was looked at.
    if (error.status === 429 || error.status >= 500) return "unavailable";
    return "invalid";
  }
  // fetch failed (service down) or an answer of the wrong shape.
  return "unavailable";
}

/** The portal's credential and the player's address; none when the address is unknown (then the portal's own address counts). */
function relayOf(request: Request): RedeemRelay | undefined {
  const clientAddress = clientAddressOf(request);
  return clientAddress ? { adminToken: offersAdminSettings(getPortalEnv()).token, clientAddress } : undefined;
}

export async function GET(request: Request) {
  const params = new URL(request.url).searchParams;
  // A link opens with its token; "try again" after a refusal comes back without one, to the token kept for it.
  const given = params.has("token")
    ? { token: params.get("token")?.trim(), gameId: params.get("gameId")?.trim() }
    : pendingRedeemOf(new NextRequest(request).cookies.get(PENDING_REDEEM_COOKIE)?.value);
  const redeem = OneTimeTokenRedeemRequest.safeParse(given ?? {});
  if (!redeem.success) return redirect(`${REWARDS_PATH}?error=invalid`);

  let accessToken: string;
  try {
    ({ accessToken } = await redeemOneTimeToken({ baseUrl: offersApiBase() }, redeem.data, relayOf(request)));
  } catch (error) {
    const problem = problemOf(error);
    if (problem !== "unavailable") {
      const response = redirect(`${REWARDS_PATH}?error=${problem}`);
      response.cookies.delete({ name: PENDING_REDEEM_COOKIE, path: REWARDS_PATH });
      return response;
    }
    const retryAfter = error instanceof OffersApiError ? error.retryAfterSeconds : undefined;
    if (!(error instanceof OffersApiError && error.status === 429)) {
      console.error("rewards: the offers service could not redeem a token:", error instanceof Error ? error.message : error);
    }
    // The token was not spent (a refused or failed redeem never spends it): kept for "try again".
    const response = redirect(`${REWARDS_PATH}?error=unavailable${retryAfter !== undefined ? `&retryAfter=${retryAfter}` : ""}`);
    response.cookies.set(PENDING_REDEEM_COOKIE, JSON.stringify(redeem.data), {
      httpOnly: true,
      sameSite: "lax",
      secure: isSecureRequest(request),
      path: REWARDS_PATH,
      maxAge: PENDING_REDEEM_MAX_AGE_S,
    });
    return response;
  }

  const response = redirect(REWARDS_PATH);
  response.cookies.set(REWARDS_COOKIE, accessToken, {
    httpOnly: true,
    sameSite: "lax",
    secure: isSecureRequest(request),
    path: REWARDS_PATH,
    maxAge: REWARDS_COOKIE_MAX_AGE_S,
  });
  response.cookies.delete({ name: PENDING_REDEEM_COOKIE, path: REWARDS_PATH });
  return response;
}
