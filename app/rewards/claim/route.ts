// POST /rewards/claim — the Claim buttons of the rewards page: claims an offer or a referral with the
// JWT of the player's cookie (POST /v1/client/reward/claim). A route handler rather than a server
// action: Next.js answers a cross-origin server-action POST with a bare 500 before any code of ours
// runs, while here a request from another site is refused with 403, and with no server action in the
// app Next.js answers any server-action POST with a 4xx (docs/decisions/2026-11-28-rewards-claim-route.md).
// The page's script posts the form and reads the answer as JSON; without scripts the form posts
// itself and the answer redirects back to /rewards, which shows the offer claimed.
import { NextResponse } from "next/server";
import { z } from "zod";
import type { ClaimState } from "@/components/rewards/claims";
import { createGameClient, OffersApiError } from "@/lib/offers-client";
import { isSameSiteRequest } from "@/lib/portal/auth/authorizer";
import { offersApiBase, readRewardsSession, REWARDS_PATH } from "../session";

export const dynamic = "force-dynamic";

const ClaimForm = z.object({ kind: z.enum(["offer", "referral"]), instanceId: z.string().min(1).max(200) });

async function claim(form: FormData | null): Promise<ClaimState> {
  const input = ClaimForm.safeParse({ kind: form?.get("kind") ?? "offer", instanceId: form?.get("instanceId") });
  if (!input.success) return { status: "error", message: "This offer could not be found." };
  const failed = (message: string): ClaimState => ({ status: "error", message, instanceId: input.data.instanceId });
  const session = await readRewardsSession();
  if (!session || session.expired) return failed("Your session has expired. Reopen the rewards link from the game.");
  const game = createGameClient({ baseUrl: offersApiBase(), getJwt: async () => session.token });
  try {
    const answer = await game.claim(input.data);
    return { status: "claimed", message: answer.message || "Rewards claimed.", instanceId: input.data.instanceId };
  } catch (error) {
    if (error instanceof OffersApiError) {
      if (error.code === "offer-not-claimable") {
        return failed(input.data.kind === "referral" ? "This reward cannot be claimed (already claimed, or your friend has not played yet)." : "This offer cannot be claimed (already claimed, or not complete yet).");
      }
      if (error.code === "offer-not-found") return failed("This offer could not be found.");
      if (error.code.startsWith("jwt-") || error.code === "unknown-gameId") return failed("Your session has expired. Reopen the rewards link from the game.");
      if (error.code === "rate-limited") return failed(`Too many claims right now — try again in ${error.retryAfterSeconds ?? 60} seconds.`);
      if (error.status < 500) return failed(`The claim failed (${error.code}).`);
    }
    console.error("rewards: claim failed:", error instanceof Error ? error.message : error);
    return failed("The rewards service is unavailable. Try again in a moment.");
  }
}

export async function POST(request: Request) {
  // The player's cookie is SameSite=Lax, so another site's form carries none; a sibling site's would.
  if (!isSameSiteRequest(request)) {
    return NextResponse.json({ status: "error", message: "This claim came from another site." } satisfies ClaimState, { status: 403 });
  }
  const state = await claim(await request.formData().catch(() => null));
  // The page's script asks for JSON; a form posted without scripts goes back to the page.
  if (request.headers.get("accept")?.includes("application/json")) return NextResponse.json(state, { headers: { "Cache-Control": "no-store" } });
  return new NextResponse(null, { status: 303, headers: { Location: REWARDS_PATH, "Cache-Control": "no-store" } });
}
