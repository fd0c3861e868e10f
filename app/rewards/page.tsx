// /rewards — the players' rewards page. Opened from the game as /rewards?token=…&gameId=…: the
// token is redeemed on the server (/rewards/redeem) and the page then shows the player's offers
// through the client campaigns endpoint (viewingCampaigns: true) and the player's referrals, with a
// claim button on claimable ones.
import { Link } from "@/components/ui/link";
import { Suspense, type ReactNode } from "react";
import { redirect } from "next/navigation";
import { createGameClient, OffersApiError } from "@/lib/offers-client";
import type { ClientBalancesResponse, ClientCampaignsResponse, PlayerReferral } from "@/lib/offers-client/schemas";
import { RewardsMessage } from "@/components/rewards/rewards-message";
import { RewardsView } from "@/components/rewards/rewards-view";
import { hasPendingRedeem, offersApiBase, readRewardsSession, type RewardsSession } from "./session";

export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

const linkProblems = {
  used: {
    title: "This link has already been used",
    text: "Each rewards link works once. Open your rewards again from the game to get a new link.",
  },
  expired: {
    title: "This link has expired",
    text: "Rewards links are valid for 5 minutes. Open your rewards again from the game to get a new link.",
  },
  invalid: {
    title: "This link is not valid",
    text: "The link may be incomplete or mistyped. Open your rewards again from the game.",
  },
  unavailable: {
    title: "Rewards are unavailable right now",
    text: "We could not reach the rewards service. Please try again in a few minutes.",
  },
} as const;

/** The redeem was refused for load (429, Retry-After seconds): the link itself is fine and was not used. */
function busy(retryAfter: string): { title: string; text: string } | null {
  if (!/^\d{1,5}$/.test(retryAfter)) return null;
  const seconds = Math.max(1, Number(retryAfter));
  return {
    title: linkProblems.unavailable.title,
    text: `Too many people are opening rewards right now — try again in ${seconds} ${seconds === 1 ? "second" : "seconds"}.`,
  };
}

export default async function RewardsPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const token = first(params.token);
  if (token) redirect(`/rewards/redeem?${new URLSearchParams({ token, gameId: first(params.gameId) })}`);

  const session = await readRewardsSession();
  const error = first(params.error);
  if (error in linkProblems) {
    const problem = (error === "unavailable" && busy(first(params.retryAfter))) || linkProblems[error as keyof typeof linkProblems];
    const canContinue = Boolean(session && !session.expired);
    // The token of a refused redeem was kept (not spent): "try again" redeems it. A plain link, never prefetched.
    const canRetry = error === "unavailable" && (await hasPendingRedeem());
    return (
      <RewardsMessage title={problem.title} tone={error === "unavailable" ? "warning" : "error"} testId={`link-${error}`}>
        <p>{problem.text}</p>
        {canRetry ? (
          <p>
            {/* A route handler that sets cookies and redirects: a full navigation, not the client router's. */}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
            <a href="/rewards/redeem">Try again</a>
          </p>
        ) : null}
        {canContinue ? (
          <p>
            <Link href="/rewards">Show the rewards of your current session</Link>
          </p>
        ) : null}
      </RewardsMessage>
    );
  }

  if (!session) {
    return (
      <RewardsMessage title="Open your rewards from the game" testId="no-session">
        <p>This page shows your offers when you open it from the game&apos;s rewards button.</p>
      </RewardsMessage>
    );
  }
  const expired = (
    <RewardsMessage title="Your session has expired" tone="warning" testId="session-expired">
      <p>For your security, rewards sessions last 15 minutes. Reopen the rewards link from the game to continue.</p>
    </RewardsMessage>
  );
  if (session.expired) return expired;
  // The checks above answer at once (a redirect stays a real redirect); the player's offers stream in.
  return (
    <Suspense
      fallback={
        <RewardsMessage title="Loading your rewards…" testId="rewards-loading">
          <p>Just a moment.</p>
        </RewardsMessage>
      }
    >
      <SessionRewards session={session} expired={expired} />
    </Suspense>
  );
}

/** The session's offers and referrals, from the offers service. */
async function SessionRewards({ session, expired }: { session: RewardsSession; expired: ReactNode }) {
  let campaigns: ClientCampaignsResponse;
  let referrals: PlayerReferral[];
  let balances: ClientBalancesResponse;
  try {
    const game = createGameClient({ baseUrl: offersApiBase(), getJwt: async () => session.token });
    [campaigns, { referrals }, balances] = await Promise.all([game.campaigns({ viewingCampaigns: true }), game.referrals(), game.balances()]);
  } catch (error) {
    if (error instanceof OffersApiError && (error.code.startsWith("jwt-") || error.code === "unknown-gameId")) return expired;
    console.error("rewards: campaigns failed:", error instanceof Error ? error.message : error);
    return (
      <RewardsMessage title={linkProblems.unavailable.title} tone="warning" testId="unavailable">
        <p>{linkProblems.unavailable.text}</p>
        <p>
          <Link href="/rewards">Try again</Link>
        </p>
      </RewardsMessage>
    );
  }
  return <RewardsView campaigns={campaigns} referrals={referrals} balances={balances} sessionEndsAt={session.expiresAt} />;
}
