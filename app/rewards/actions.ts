"use server";
// Claim an offer or a referral from the rewards page: POST /v1/client/reward/claim with the JWT of
// the player's cookie.
// Next checks that server actions come from our own origin; the cookie is httpOnly and SameSite=Lax.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { createGameClient, OffersApiError } from "@/lib/offers-client";
import type { ClaimState } from "@/components/rewards/claims";
import { offersApiBase, readRewardsSession } from "./session";

const ClaimForm = z.object({ kind: z.enum(["offer", "referral"]), instanceId: z.string().min(1).max(200) });

export async function claimReward(_previous: ClaimState, form: FormData): Promise<ClaimState> {
  const input = ClaimForm.safeParse({ kind: form.get("kind") ?? "offer", instanceId: form.get("instanceId") });
  if (!input.success) return { status: "error", message: "This offer could not be found." };
  const failed = (message: string): ClaimState => ({ status: "error", message, instanceId: input.data.instanceId });
  const session = await readRewardsSession();
  if (!session || session.expired) return failed("Your session has expired. Reopen the rewards link from the game.");
  const game = createGameClient({ baseUrl: offersApiBase(), getJwt: async () => session.token });
  try {
    const answer = await game.claim(input.data);
    revalidatePath("/rewards");
    return { status: "claimed", message: answer.message || "Rewards claimed.", instanceId: input.data.instanceId };
  } catch (error) {
    revalidatePath("/rewards");
    if (error instanceof OffersApiError) {
      if (error.code === "offer-not-claimable") {
        return failed(input.data.kind === "referral" ? "This reward cannot be claimed (already claimed, or your friend has not played yet)." : "This offer cannot be claimed (already claimed, or not complete yet).");
      }
      if (error.code === "offer-not-found") return failed("This offer could not be found.");
      if (error.code.startsWith("jwt-") || error.code === "unknown-gameId") {
        return failed("Your session has expired. Reopen the rewards link from the game.");
      }
      if (error.status < 500) return failed(`The claim failed (${error.code}).`);
    }
    return failed("The rewards service is unavailable. Try again in a moment.");
  }
}
