// GET /rewards/redeem?token=…&gameId=… — where /rewards?token=… sends the browser. Redeems the
// one-time token with the offers service (once, within 5 minutes), keeps the player's access JWT in
// an httpOnly cookie scoped to /rewards, and redirects to /rewards without the token in the URL.
// A failed redeem redirects to /rewards?error=used|expired|invalid|unavailable.
import { NextResponse } from "next/server";
import { OffersApiError, redeemOneTimeToken } from "@/lib/offers-client";
import { OneTimeTokenRedeemRequest } from "@/lib/offers-client/schemas";
import { isSecureRequest, offersApiBase, REWARDS_COOKIE, REWARDS_COOKIE_MAX_AGE_S, REWARDS_PATH } from "../session";

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
    if (error.status >= 500) return "unavailable";
    return "invalid";
  }
  // fetch failed (service down) or an answer of the wrong shape.
  return "unavailable";
}

export async function GET(request: Request) {
  const params = new URL(request.url).searchParams;
  const redeem = OneTimeTokenRedeemRequest.safeParse({ token: params.get("token")?.trim(), gameId: params.get("gameId")?.trim() });
  if (!redeem.success) return redirect(`${REWARDS_PATH}?error=invalid`);

  let accessToken: string;
  try {
    ({ accessToken } = await redeemOneTimeToken({ baseUrl: offersApiBase() }, redeem.data));
  } catch (error) {
    const problem = problemOf(error);
    if (problem === "unavailable") console.error("rewards: the offers service could not redeem a token:", error instanceof Error ? error.message : error);
    return redirect(`${REWARDS_PATH}?error=${problem}`);
  }

  const response = redirect(REWARDS_PATH);
  response.cookies.set(REWARDS_COOKIE, accessToken, {
    httpOnly: true,
    sameSite: "lax",
    secure: isSecureRequest(request),
    path: REWARDS_PATH,
    maxAge: REWARDS_COOKIE_MAX_AGE_S,
  });
  return response;
}
